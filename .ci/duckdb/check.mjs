// Reads every table of a result directory with DuckDB (outside Go) and
// checks its totals against manifest.json. Usage: node check.mjs DIR
import { DuckDBInstance } from '@duckdb/node-api';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.argv[2];
if (!dir) { console.error('usage: node check.mjs RESULT_DIR'); process.exit(2); }
const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
const db = await (await DuckDBInstance.create(':memory:')).connect();
const q = async (sql) => (await db.runAndReadAll(sql)).getRowObjects();
const t = (name) => `read_parquet('${join(dir, name + '.parquet')}')`;
let failed = 0, passed = 0;
const check = (what, got, want) => {
  if (String(got) === String(want)) { passed++; console.log(`ok   ${what}: ${got}`); }
  else { failed++; console.log(`FAIL ${what}: got ${got}, want ${want}`); }
};

for (const file of manifest.tables) {
  const [{ n }] = await q(`SELECT count(*) AS n FROM read_parquet('${join(dir, file)}')`);
  check(`${file} is readable and has rows`, Number(n) > 0, true);
  const md = await q(`SELECT decode(key) AS k, decode(value) AS v FROM parquet_kv_metadata('${join(dir, file)}')`);
  const kv = Object.fromEntries(md.map((r) => [r.k, r.v]));
  check(`${file} metadata config_hash`, kv.config_hash, manifest.config_hash);
  check(`${file} metadata seed`, kv.seed, String(manifest.seed));
}
const [sq] = await q(`SELECT sum(walks) AS w, sum(successes) AS s, sum(closed) AS c, sum(stopped) AS st FROM ${t('squares')}`);
check('squares: total walks', sq.w, manifest.walks);
check('squares: total successes', sq.s, manifest.successes);
check('squares: total closed', sq.c, manifest.closed);
const [len] = await q(`SELECT sum(count) AS n FROM ${t('lengths')}`);
check('lengths: histogram counts sum to the walks', len.n, manifest.walks);
const [ful] = await q(`SELECT sum(count) AS n FROM ${t('lengths')} WHERE length = rows * cols`);
check('lengths: full-length walks are the successes', ful.n ?? 0n, manifest.successes);
const [de] = await q(`SELECT sum(count) AS n FROM ${t('deadends')}`);
check('deadends + successes + stopped = walks', BigInt(de.n ?? 0n) + BigInt(sq.s) + BigInt(sq.st), manifest.walks);
const [cl] = await q(`SELECT sum(walks) AS w, sum(successes) AS s FROM ${t('classes')} WHERE group_by = 'class'`);
check('classes: walks pooled over classes', cl.w, manifest.walks);
check('classes: successes pooled over classes', cl.s, manifest.successes);
const [dg] = await q(`SELECT sum(walks) AS w FROM ${t('classes')} WHERE group_by = 'degree'`);
check('classes: walks pooled over degrees', dg.w, manifest.walks);
const bad = await q(`SELECT count(*) AS n FROM ${t('claims')} WHERE verdict NOT IN ('consistent', 'refuted', 'inconclusive')`);
check('claims: every verdict is valid', bad[0].n, 0);
const iv = await q(`SELECT count(*) AS n FROM ${t('squares')} WHERE NOT (success_lo <= success_rate AND success_rate <= success_hi)`);
check('squares: every rate lies in its interval', iv[0].n, 0);
console.log(`duckdb: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
