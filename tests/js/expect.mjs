// Shared by check_duckdb.mjs and check_hyparquet.mjs: the expected aggregates
// written by test_parquet (expected.json) and value comparison by column type.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export function loadExpected(dir) {
  return JSON.parse(readFileSync(join(dir, 'expected.json'), 'utf8'));
}

const INT = new Set(['INTEGER', 'BIGINT']);
const REAL = new Set(['FLOAT', 'DOUBLE']);

// A value as compared: integers as decimal strings (BigInt-exact), reals as
// numbers, booleans, strings; null stays null.
export function norm(type, v) {
  if (v === null || v === undefined) return null;
  if (INT.has(type)) return BigInt(v).toString();
  if (REAL.has(type)) return Number(v);
  if (type === 'BOOLEAN') return v === true || v === 'true' || v === 1 || v === 1n;
  return String(v);
}

export function isInt(type) { return INT.has(type); }
export function isReal(type) { return REAL.has(type); }

let failures = 0;
export function check(what, got, want) {
  const ok = Object.is(got, want) || (typeof got === 'number' && got === want);
  if (!ok) {
    failures++;
    console.error(`FAIL ${what}: got ${JSON.stringify(got, (k, x) => typeof x === 'bigint' ? x.toString() : x)}, want ${JSON.stringify(want)}`);
  }
}
export function done(reader, nchecks) {
  if (failures) {
    console.error(`${reader}: ${failures} of ${nchecks} checks failed`);
    process.exit(1);
  }
  console.log(`${reader}: ${nchecks} checks passed`);
}
