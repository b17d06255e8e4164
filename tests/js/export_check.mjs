// Read the tables `nxp export` wrote with DuckDB and compare with the cursor
// API's rows (nxp dump --format jsonl) and nxp summary --json:
//   node export_check.mjs DIR DUMPDIR SUMMARY_JSON
// DUMPDIR holds <table>.jsonl for instruction, dma, semaphore, active_time.
import { DuckDBInstance } from '@duckdb/node-api';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const [dir, dumps, summaryPath] = process.argv.slice(2);
const inst = await DuckDBInstance.create(':memory:');
const con = await inst.connect();
const rows = async (sql) => (await con.runAndReadAll(sql)).getRowObjectsJS();
const pq = (t) => `read_parquet('${join(dir, t + '.parquet').replaceAll("'", "''")}')`;
let n = 0, bad = 0;
const ck = (what, got, want) => {
  n++;
  const g = typeof got === 'bigint' ? Number(got) : got, w = typeof want === 'bigint' ? Number(want) : want;
  const same = typeof g === 'number' && typeof w === 'number' ? Math.abs(g - w) <= 1e-9 * Math.max(1, Math.abs(w)) : g === w;
  if (!same) { bad++; console.error(`FAIL ${what}: got ${got}, want ${want}`); }
};
const jsonl = (t) => readFileSync(join(dumps, t + '.jsonl'), 'utf8').split('\n').filter((l) => l).map((l) => JSON.parse(l));

// 1. aggregates against the cursor's rows
const tables = [
  ['Instruction', 'instruction', 'start_ts', 'duration_ns', 'opcode'],
  ['DmaPacket', 'dma', 'start_ts', 'transfer_bytes', 'queue_name'],
  ['SemaphoreUpdate', 'semaphore', 'timestamp', 'value', 'id'],
  ['ActiveTime', 'active_time', 'start_ts', 'duration_ns', 'engine'],
];
for (const [T, dump, ts, sumcol, dcol] of tables) {
  const c = jsonl(dump);
  const [a] = await rows(`SELECT count(*) AS cnt, sum(${sumcol})::BIGINT AS s, min(${ts}) AS lo, max(${ts}) AS hi,
      count(DISTINCT ${dcol}) AS d FROM ${pq(T)}`);
  ck(`${T} count(*)`, a.cnt, c.length);
  ck(`${T} sum(${sumcol})`, a.s ?? 0, c.reduce((x, r) => x + Number(r[sumcol]), 0));
  if (c.length) {
    ck(`${T} min(${ts})`, a.lo, Math.min(...c.map((r) => Number(r[ts]))));
    ck(`${T} max(${ts})`, a.hi, Math.max(...c.map((r) => Number(r[ts]))));
  }
  ck(`${T} count(DISTINCT ${dcol})`, a.d, new Set(c.map((r) => r[dcol]).filter((v) => v !== null && v !== '')).size);
}

// 2. DESCRIBE of every file = SchemaFields' rows for it (names, in order, and types)
const duck = { int64: 'BIGINT', int32: 'INTEGER', float64: 'DOUBLE', bool: 'BOOLEAN', utf8: 'VARCHAR',
  'dictionary<int32, utf8>': 'VARCHAR' };
const sf = await rows(`SELECT * FROM ${pq('SchemaFields')}`);
const typeCol = Object.keys(sf[0]).find((k) => /type/.test(k) && k !== 'table_name');
const files = (await rows(`SELECT file FROM glob('${join(dir, '*.parquet')}')`)).map((r) => r.file);
for (const f of files) {
  const T = f.split('/').pop().replace(/\.parquet$/, '');
  const desc = await rows(`DESCRIBE SELECT * FROM read_parquet('${f}')`);
  const want = sf.filter((r) => r.table_name === T);
  ck(`${T}: columns listed in SchemaFields`, desc.map((d) => d.column_name).join(','), want.map((r) => r.field_name).join(','));
  desc.forEach((d, i) => want[i] && ck(`${T}.${d.column_name} type`, d.column_type, duck[want[i][typeCol]] ?? want[i][typeCol]));
}

// 3. the users' queries against the summary
const sum = JSON.parse(readFileSync(summaryPath, 'utf8'));
const [s] = await rows(`SELECT * FROM ${pq('Summary')}`);
ck('Summary rows', (await rows(`SELECT count(*) AS c FROM ${pq('Summary')}`))[0].c, 1);
for (const [k, v] of Object.entries(sum))
  if (typeof v === 'number' && k in s) ck(`Summary.${k} = summary --json`, Number(s[k]), v);
const top = await rows(`SELECT opcode, sum(duration_ns)::BIGINT AS t, count(*) AS c FROM ${pq('Instruction')}
    GROUP BY opcode ORDER BY t DESC LIMIT 10`);
const byOp = new Map();
for (const r of jsonl('instruction')) byOp.set(r.opcode, (byOp.get(r.opcode) ?? 0) + Number(r.duration_ns));
const want = [...byOp.entries()].sort((a, b) => b[1] - a[1]).slice(0, 10);
top.forEach((r, i) => ck(`top opcode ${i} total time`, r.t, want[i][1]));
const os = await rows(`SELECT sum(count)::BIGINT AS c FROM ${pq('OpcodeSummary')}`).catch(() => null);
if (os && os[0].c !== null) ck('OpcodeSummary counts = Instruction rows', os[0].c, jsonl('instruction').length);
const q = await rows(`SELECT queue_name, sum(transfer_bytes)::BIGINT AS b FROM ${pq('DmaPacket')} GROUP BY ALL`);
ck('DMA bytes per queue add up', q.reduce((x, r) => x + Number(r.b), 0), jsonl('dma').reduce((x, r) => x + Number(r.transfer_bytes), 0));
const act = await rows(`SELECT engine, sum(duration_ns)::BIGINT AS t FROM ${pq('ActiveTime')} GROUP BY engine`);
const actWant = new Map();
for (const r of jsonl('active_time')) actWant.set(r.engine, (actWant.get(r.engine) ?? 0) + Number(r.duration_ns));
for (const r of act) ck(`active time of ${r.engine}`, r.t, actWant.get(r.engine));
ck('engines with active time', act.length, actWant.size);

console.log(`export_check ${dir}: ${n} checks, ${bad} failed`);
process.exit(bad ? 1 : 0);
