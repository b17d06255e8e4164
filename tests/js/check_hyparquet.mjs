// Read every file test_parquet wrote with hyparquet (pure JS, with
// hyparquet-compressors for ZSTD/GZIP) and compare rows, aggregates, spot rows,
// row groups and key-value metadata with expected.json.   node check_hyparquet.mjs DIR
import { asyncBufferFromFile, parquetMetadataAsync, parquetReadObjects } from 'hyparquet';
import { compressors } from 'hyparquet-compressors';
import { join } from 'node:path';
import { loadExpected, norm, isInt, isReal, check, done } from './expect.mjs';

const dir = process.argv[2];
const expected = loadExpected(dir);
let n = 0;
const ck = (what, got, want) => { n++; check(what, got, want); };
const less = (type, a, b) => (isInt(type) ? BigInt(a) < BigInt(b) : a < b);

for (const [file, exp] of Object.entries(expected)) {
  const buf = await asyncBufferFromFile(join(dir, file));
  const meta = await parquetMetadataAsync(buf);
  ck(`${file}: num_rows`, Number(meta.num_rows), exp.rows);
  const groups = meta.row_groups.length;
  n++;
  if (groups < exp.min_row_groups || groups > exp.max_row_groups)
    check(`${file}: row groups ${groups} in [${exp.min_row_groups}, ${exp.max_row_groups}]`, groups, exp.min_row_groups);
  const kv = Object.fromEntries((meta.key_value_metadata ?? []).map((e) => [e.key, e.value]));
  ck(`${file}: key-value metadata`, JSON.stringify(kv, Object.keys(kv).sort()), JSON.stringify(exp.kv, Object.keys(exp.kv).sort()));
  const leaves = meta.schema.slice(1);
  exp.columns.forEach((c, i) => {
    ck(`${file}: column ${i} name`, leaves[i]?.name, c.name);
    ck(`${file}: ${c.name} repetition`, leaves[i]?.repetition_type, c.nullable ? 'OPTIONAL' : 'REQUIRED');
  });
  const data = exp.rows ? await parquetReadObjects({ file: buf, compressors }) : [];
  ck(`${file}: rows read`, data.length, exp.rows);
  for (const c of exp.columns) {
    const what = `${file}: ${c.name}`;
    let cnt = 0, nulls = 0, sum = isInt(c.type) ? 0n : 0, trues = 0, min = null, max = null;
    const seen = new Set();
    for (const r of data) {
      const v = norm(c.type, r[c.name]);
      if (v === null) { nulls++; continue; }
      cnt++;
      if (isInt(c.type)) sum += BigInt(v);
      else if (isReal(c.type)) sum += v;
      if (c.type === 'BOOLEAN') trues += v ? 1 : 0;
      if (c.type === 'VARCHAR') seen.add(v);
      if (min === null || less(c.type, v, min)) min = v;
      if (max === null || less(c.type, max, v)) max = v;
    }
    ck(`${what} count`, cnt, c.count);
    ck(`${what} nulls`, nulls, c.nulls);
    if (!cnt) continue;
    if ('sum' in c) ck(`${what} sum`, norm(c.type, isInt(c.type) ? sum.toString() : sum), norm(c.type, c.sum));
    if ('trues' in c) ck(`${what} trues`, trues, c.trues);
    if ('distinct' in c) ck(`${what} distinct`, seen.size, c.distinct);
    if (c.type === 'VARCHAR') {
      // hyparquet compares nothing here: byte order of ASCII strings is JS order
      ck(`${what} min`, [...seen].sort()[0], c.min);
      ck(`${what} max`, [...seen].sort().at(-1), c.max);
    } else {
      ck(`${what} min`, min, norm(c.type, c.min));
      ck(`${what} max`, max, norm(c.type, c.max));
    }
  }
  for (const s of exp.spot)
    for (const c of exp.columns)
      ck(`${file}: row ${s.row} ${c.name}`, norm(c.type, data[s.row]?.[c.name]), norm(c.type, s.values[c.name]));
}
done('hyparquet', n);
