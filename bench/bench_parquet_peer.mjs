// Parquet writing vs a peer writer, same rows, same run (issue 13 §5):
// libnxp's `nxp export` of one table (NTFF decode, Arrow batches, Parquet with
// ZSTD, one thread) against DuckDB's own Parquet writer (COPY ... TO, ZSTD,
// threads = 1) writing the same table from an in-memory DuckDB table.
// DuckDB's figure leaves out any decoding (its rows are already in memory);
// libnxp's includes reading the NTFF, so the ratio understates libnxp's writer.
//
//   node bench_parquet_peer.mjs --nxp NXP [--neff F --ntff F | --instructions N]
//        [--tables T,...] [--reps R] [--dir DIR]
//
// Run from a folder whose node_modules holds @duckdb/node-api (./dev.sh bench
// copies it into build-bench/js, where `npm ci` installed the package).  CPU
// times: the child's user+sys for nxp (bash's `time`), this process's
// user+sys for DuckDB (every thread of it); best of R (default 3).  Prints
// rows, both CPU seconds, their ratio and both file sizes.
import { DuckDBInstance } from '@duckdb/node-api';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cpuUsage } from 'node:process';

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(name);
  return i >= 0 && i + 1 < args.length ? args[i + 1] : dflt;
};
const nxp = opt('--nxp');
if (!nxp) {
  console.error('usage: node bench_parquet_peer.mjs --nxp NXP [--neff F --ntff F | --instructions N] [--tables T,...] [--reps R] [--dir DIR]');
  process.exit(2);
}
const reps = Math.max(1, parseInt(opt('--reps', '3'), 10));
const tables = opt('--tables', 'Instruction,DmaPacket').split(',');
const keep = opt('--dir');
const dir = keep ?? mkdtempSync(join(tmpdir(), 'nxp-peer-'));
const die = (msg) => { console.error(`bench_parquet_peer: ${msg}`); process.exit(1); };

function run(cmd, argv) {
  const r = spawnSync(cmd, argv, { encoding: 'utf8' });
  if (r.status !== 0) die(`${cmd} ${argv.join(' ')} failed: ${r.stderr || r.error}`);
  return r;
}

let neff = opt('--neff'), ntff = opt('--ntff');
if (!neff || !ntff) {
  const n = opt('--instructions', '1450000');
  const prefix = join(dir, 'trace');
  run(nxp, ['synth', '--workload', 'mlp', '--arch', 'trn2', '--lnc', '2', '--seed', '1', '--instructions', n, '-o', prefix]);
  neff = `${prefix}.neff`;
  ntff = `${prefix}.ntff`;
}
const mb = statSync(ntff).size / 1e6;

// CPU seconds (user + sys) of one `nxp export` of table t.
function nxpExport(t, out) {
  const q = (s) => `'${s.replaceAll("'", "'\\''")}'`;
  const script = `TIMEFORMAT='%U %S'; time ${q(nxp)} export ${q(neff)} ${q(ntff)} -o ${q(out)} --tables ${q(t)} --threads 1 --force --quiet`;
  const r = run('bash', ['-c', script]);
  const m = r.stderr.trim().split('\n').pop().split(' ').map(Number);
  if (m.length !== 2 || m.some(Number.isNaN)) die(`cannot read the CPU time of nxp export: ${r.stderr}`);
  return m[0] + m[1];
}

const inst = await DuckDBInstance.create(':memory:', { threads: '1' });
const con = await inst.connect();
const sq = (s) => `'${s.replaceAll("'", "''")}'`;

console.log(`trace: ${ntff} (${mb.toFixed(0)} MB NTFF); best of ${reps}; CPU seconds (user+sys)`);
console.log('table              rows   libnxp export   DuckDB COPY    ratio   libnxp MB   DuckDB MB');
for (const t of tables) {
  const ours = join(dir, 'nxp');
  let best = Infinity;
  for (let i = 0; i < reps; i++) best = Math.min(best, nxpExport(t, ours));
  const file = join(ours, `${t}.parquet`);
  await con.run(`CREATE OR REPLACE TABLE m AS SELECT * FROM ${sq(file)}`);
  const rows = Number((await con.runAndReadAll('SELECT count(*) FROM m')).getRows()[0][0]);
  const theirs = join(dir, `duckdb_${t}.parquet`);
  let duck = Infinity;
  for (let i = 0; i < reps; i++) {
    const u0 = cpuUsage();
    await con.run(`COPY m TO ${sq(theirs)} (FORMAT parquet, COMPRESSION zstd)`);
    const u = cpuUsage(u0);
    duck = Math.min(duck, (u.user + u.system) / 1e6);
  }
  await con.run('DROP TABLE m');
  const size = (f) => (statSync(f).size / 1e6).toFixed(1);
  console.log(`${t.padEnd(14)} ${String(rows).padStart(9)}   ${best.toFixed(3).padStart(8)} s    ${duck.toFixed(3).padStart(8)} s  ` +
    `${(duck / best).toFixed(2).padStart(6)}x   ${size(file).padStart(9)}   ${size(theirs).padStart(9)}`);
}
console.log('ratio = DuckDB CPU / libnxp CPU (> 1: libnxp faster); libnxp\'s figure includes decoding the NTFF, DuckDB\'s only writing');
if (!keep) rmSync(dir, { recursive: true, force: true });
