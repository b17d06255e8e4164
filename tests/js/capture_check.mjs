// Read a capture export (nxp export --capture DIR -o OUT: Hive partitions
// OUT/<Table>/profile=<name>/part-0.parquet) with DuckDB and compare each
// profile's partition with that profile's own export:
//   node capture_check.mjs OUT PERDIR NAME...
// PERDIR/<NAME>/<Table>.parquet is `nxp export NEFF NTFF -o PERDIR/NAME` of the
// profile whose partition value is NAME.
import { DuckDBInstance } from '@duckdb/node-api';
import { join } from 'node:path';

const [out, per, ...names] = process.argv.slice(2);
const inst = await DuckDBInstance.create(':memory:');
const con = await inst.connect();
const rows = async (sql) => (await con.runAndReadAll(sql)).getRowObjectsJS();
const q = (s) => s.replaceAll("'", "''");
let n = 0, bad = 0;
const ck = (what, got, want) => {
  n++;
  const g = typeof got === 'bigint' ? Number(got) : got, w = typeof want === 'bigint' ? Number(want) : want;
  if (g !== w) { bad++; console.error(`FAIL ${what}: got ${got}, want ${want}`); }
};
const hive = (T) => `read_parquet('${q(join(out, T))}/*/*.parquet', hive_partitioning=true)`;

if (names.length < 2) { console.error('FAIL: fewer than two profiles given'); process.exit(1); }
for (const [T, sumcol] of [['Instruction', 'duration_ns'], ['DmaPacket', 'transfer_bytes'],
  ['SemaphoreUpdate', 'value'], ['ActiveTime', 'duration_ns'], ['OpcodeSummary', 'instruction_count']]) {
  const got = await rows(`SELECT profile, count(*) AS c, sum(${sumcol})::BIGINT AS s FROM ${hive(T)}
      GROUP BY profile ORDER BY profile`);
  ck(`${T}: profiles`, got.map((r) => r.profile).join(','), [...names].sort().join(','));
  for (const name of names) {
    const [w] = await rows(`SELECT count(*) AS c, sum(${sumcol})::BIGINT AS s
        FROM read_parquet('${q(join(per, name, T + '.parquet'))}')`);
    const g = got.find((r) => r.profile === name) ?? { c: -1, s: -1 };
    ck(`${T} profile=${name} count(*)`, g.c, w.c);
    ck(`${T} profile=${name} sum(${sumcol})`, g.s ?? 0, w.s ?? 0);
  }
}
// the columns: the table's own, then the partition column
const [d1] = await rows(`SELECT count(*) AS c FROM (DESCRIBE SELECT * FROM ${hive('Instruction')})`);
const [d2] = await rows(`SELECT count(*) AS c FROM (DESCRIBE SELECT * FROM read_parquet('${q(join(per, names[0], 'Instruction.parquet'))}'))`);
ck('Instruction columns = own + profile', Number(d1.c), Number(d2.c) + 1);
// one Summary row per profile; system tables unpartitioned
const [s] = await rows(`SELECT count(*) AS c, count(DISTINCT profile) AS p FROM ${hive('Summary')}`);
ck('Summary rows', s.c, names.length);
ck('Summary profiles', s.p, names.length);
const [e] = await rows(`SELECT count(*) AS c FROM read_parquet('${q(join(out, 'SystemProfileEvents', 'part-0.parquet'))}')`);
if (!(Number(e.c) > 0)) { bad++; console.error('FAIL SystemProfileEvents: no rows'); }
n++;
console.log(`capture_check: ${n - bad}/${n} checks passed (${names.length} profiles)`);
process.exit(bad ? 1 : 0);
