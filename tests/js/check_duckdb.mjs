// Read every file test_parquet wrote with DuckDB (@duckdb/node-api) and compare
// DESCRIBE, parquet_schema(), count(*), per-column aggregates, spot rows,
// parquet_metadata() (row groups, codec, statistics, encodings) and
// parquet_kv_metadata() with expected.json.   node check_duckdb.mjs DIR
import { DuckDBInstance } from '@duckdb/node-api';
import { join } from 'node:path';
import { loadExpected, norm, isInt, isReal, check, done } from './expect.mjs';

const dir = process.argv[2];
const expected = loadExpected(dir);
const inst = await DuckDBInstance.create(':memory:');
const con = await inst.connect();
const rows = async (sql) => (await con.runAndReadAll(sql)).getRowObjectsJS();
const q = (s) => `'${s.replaceAll("'", "''")}'`;
const id = (s) => `"${s.replaceAll('"', '""')}"`;
let n = 0;
const ck = (what, got, want) => { n++; check(what, got, want); };

for (const [file, exp] of Object.entries(expected)) {
  const f = q(join(dir, file));
  const desc = await rows(`DESCRIBE SELECT * FROM read_parquet(${f})`);
  ck(`${file}: column count`, desc.length, exp.columns.length);
  const schema = await rows(`SELECT name, repetition_type FROM parquet_schema(${f}) WHERE num_children IS NULL`);
  exp.columns.forEach((c, i) => {
    ck(`${file}: column ${i} name`, desc[i]?.column_name, c.name);
    ck(`${file}: ${c.name} type`, desc[i]?.column_type, c.type);
    ck(`${file}: ${c.name} repetition`, schema[i]?.repetition_type, c.nullable ? 'OPTIONAL' : 'REQUIRED');
  });
  const [{ cnt }] = await rows(`SELECT count(*) AS cnt FROM read_parquet(${f})`);
  ck(`${file}: count(*)`, Number(cnt), exp.rows);

  for (const c of exp.columns) {
    const col = id(c.name);
    const what = `${file}: ${c.name}`;
    let sel = `count(${col}) AS cnt, count(*) - count(${col}) AS nulls`;
    if (isInt(c.type)) sel += `, sum(${col})::VARCHAR AS sum, min(${col})::VARCHAR AS min, max(${col})::VARCHAR AS max`;
    else if (isReal(c.type)) sel += `, sum(${col})::DOUBLE AS sum, min(${col})::DOUBLE AS min, max(${col})::DOUBLE AS max`;
    else if (c.type === 'BOOLEAN') sel += `, count_if(${col}) AS trues, min(${col}) AS min, max(${col}) AS max`;
    else sel += `, count(DISTINCT ${col}) AS distinct, min(${col}) AS min, max(${col}) AS max`;
    const [a] = await rows(`SELECT ${sel} FROM read_parquet(${f})`);
    ck(`${what} count`, Number(a.cnt), c.count);
    ck(`${what} nulls`, Number(a.nulls), c.nulls);
    if (c.count === 0) continue;
    for (const k of ['sum', 'min', 'max']) if (k in c) ck(`${what} ${k}`, norm(c.type, a[k]), norm(c.type, c[k]));
    if ('trues' in c) ck(`${what} trues`, Number(a.trues), c.trues);
    if ('distinct' in c) ck(`${what} distinct`, Number(a.distinct), c.distinct);
  }

  if (exp.spot.length) {
    const want = exp.spot.map((s) => s.row).join(',');
    const got = await rows(`SELECT * FROM read_parquet(${f}, file_row_number = true) WHERE file_row_number IN (${want}) ORDER BY file_row_number`);
    ck(`${file}: spot rows found`, got.length, exp.spot.length);
    exp.spot.forEach((s, i) => {
      for (const c of exp.columns)
        ck(`${file}: row ${s.row} ${c.name}`, norm(c.type, got[i]?.[c.name]), norm(c.type, s.values[c.name]));
    });
  }

  // Footer: row groups, codec, statistics, encodings.
  const [rg] = await rows(`SELECT count(DISTINCT row_group_id) AS groups, count(DISTINCT compression) AS codecs, min(compression) AS codec FROM parquet_metadata(${f})`);
  const groups = Number(rg.groups);
  n++;
  if (groups < exp.min_row_groups || groups > exp.max_row_groups)
    check(`${file}: row groups ${groups} in [${exp.min_row_groups}, ${exp.max_row_groups}]`, groups, exp.min_row_groups);
  if (exp.rows > 0) {
    ck(`${file}: one codec`, Number(rg.codecs), 1);
    ck(`${file}: codec`, rg.codec, exp.codec);
  }
  for (const c of exp.columns) {
    if (exp.rows === 0) break;
    const what = `${file}: ${c.name} statistics`;
    const cast = isInt(c.type) ? 'BIGINT' : isReal(c.type) ? 'DOUBLE' : c.type === 'BOOLEAN' ? 'BOOLEAN' : 'VARCHAR';
    const [s] = await rows(`SELECT sum(stats_null_count) AS nulls, min(stats_min_value::${cast})::VARCHAR AS min, max(stats_max_value::${cast})::VARCHAR AS max, string_agg(DISTINCT encodings, ' | ') AS enc FROM parquet_metadata(${f}) WHERE path_in_schema = ${q(c.name)}`);
    ck(`${what} null_count`, Number(s.nulls), c.nulls);
    if (c.count > 0) {
      ck(`${what} min_value`, norm(c.type, c.type === 'BOOLEAN' ? s.min === 'true' : s.min), norm(c.type, c.min));
      ck(`${what} max_value`, norm(c.type, c.type === 'BOOLEAN' ? s.max === 'true' : s.max), norm(c.type, c.max));
    }
    if (c.type === 'VARCHAR' && c.name !== 'name') {
      ck(`${what} dictionary encoded`, s.enc.includes('RLE_DICTIONARY'), true);
      if (file === 'dict_fallback.parquet')
        ck(`${what} PLAIN after the dictionary filled up`, /\bPLAIN\b/.test(s.enc), true);
    }
    for (const e of c.enc ?? []) ck(`${what} encodings include ${e}`, s.enc.split(/[\s,|]+/).includes(e), true);
  }
  const kv = Object.fromEntries((await rows(`SELECT decode(key) AS k, decode(value) AS v FROM parquet_kv_metadata(${f})`)).map((r) => [r.k, r.v]));
  ck(`${file}: key-value metadata`, JSON.stringify(kv, Object.keys(kv).sort()), JSON.stringify(exp.kv, Object.keys(exp.kv).sort()));
}

// A query users write: statistics let DuckDB skip row groups on a time filter.
const small = q(join(dir, 'all_small_rg.parquet'));
const [w] = await rows(`SELECT count(*) AS c FROM read_parquet(${small}) WHERE i64 BETWEEN -5000000000 AND -4000000000`);
ck('time-window query on all_small_rg', Number(w.c), 1000);
done('DuckDB', n);
