// Reads every table of a result directory with DuckDB (outside Go) and
// checks its totals against manifest.json. Usage: node check.mjs DIR
import { DuckDBInstance } from '@duckdb/node-api';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.argv[2];
if (!dir) { console.error('usage: node check.mjs RESULT_DIR'); process.exit(2); }
const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
// Seeds and walk totals are JSON strings in manifest.json (a bare number
// above 2^53 reads back rounded here), and every comparison below is of
// strings: String(BigInt) against the manifest's decimal string.
const check0 = [];
for (const [k, v] of [['seed', manifest.seed], ['config.seed', manifest.config.seed], ['walks', manifest.walks]]) {
  check0.push([`manifest ${k} is a decimal string`, typeof v === 'string' && /^[0-9]+$/.test(v), true]);
}
const db = await (await DuckDBInstance.create(':memory:')).connect();
const q = async (sql) => (await db.runAndReadAll(sql)).getRowObjects();
const t = (name) => `read_parquet('${join(dir, name + '.parquet')}')`;
let failed = 0, passed = 0;
const check = (what, got, want) => {
  if (String(got) === String(want)) { passed++; console.log(`ok   ${what}: ${got}`); }
  else { failed++; console.log(`FAIL ${what}: got ${got}, want ${want}`); }
};
for (const c of check0) check(...c);
check('metadata seed and manifest seed agree as strings', manifest.seed, manifest.config.seed);

for (const file of manifest.tables) {
  const [{ n }] = await q(`SELECT count(*) AS n FROM read_parquet('${join(dir, file)}')`);
  // Every result has the same files; some tables may be empty (their
  // schema alone): claims in a run without claims, deadends when no walk
  // ended in a dead end, comparisons with one rule and one start class.
  if (file === 'claims.parquet' && !(manifest.config.claims || []).length) {
    check(`${file} is readable and empty (the run has no claims)`, Number(n), 0);
  } else if (file === 'deadends.parquet' || file === 'comparisons.parquet') {
    check(`${file} is readable (${n} rows)`, Number(n) >= 0, true);
  } else {
    check(`${file} is readable and has rows`, Number(n) > 0, true);
  }
  const md = await q(`SELECT decode(key) AS k, decode(value) AS v FROM parquet_kv_metadata('${join(dir, file)}')`);
  const kv = Object.fromEntries(md.map((r) => [r.k, r.v]));
  check(`${file} metadata config_hash`, kv.config_hash, manifest.config_hash);
  check(`${file} metadata seed`, kv.seed, String(manifest.seed));
}
const [sq] = await q(`SELECT sum(walks) AS w, sum(successes) AS s, sum(closed) AS c, sum(stopped) AS st, count(*) AS rows FROM ${t('squares')}`);
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
const [bd] = await q(`SELECT sum(walks) AS w, sum(successes) AS s, sum(closed) AS c, sum(stopped) AS st,
  count(*) FILTER (WHERE successes + dead_ends + stopped + budget_exceeded <> walks) AS bad FROM ${t('boards')}`);
check('boards: walks pooled over boards', bd.w, manifest.walks);
check('boards: successes pooled over boards', bd.s, manifest.successes);
check('boards: closed pooled over boards', bd.c, manifest.closed);
check('boards: stopped as in squares', bd.st, sq.st);
check('boards: successes + dead_ends + stopped + budget_exceeded = walks', bd.bad, 0);
const [bsq] = await q(`SELECT count(*) AS n FROM ${t('boards')} b JOIN (
  SELECT experiment, board, rule, sum(walks) AS w, sum(successes) AS s, sum(budget_exceeded) AS be
  FROM ${t('squares')} GROUP BY ALL) q USING (experiment, board, rule)
  WHERE q.w <> b.walks OR q.s <> b.successes OR q.be <> b.budget_exceeded`);
check('boards: every row is its squares pooled', bsq.n, 0);
const [exp] = await q(`SELECT count(*) AS n FROM ${t('squares')} WHERE experiment <> '${manifest.experiment}'`);
check('squares: every row names the experiment', exp.n, 0);
const [par] = await q(`SELECT count(*) AS n FROM ${t('squares')}
  WHERE (rule = 'random') <> (tie_break IS NULL) OR (rule LIKE 'backtrack%') <> (node_budget IS NOT NULL)`);
check('squares: rule parameters null exactly where the rule has none', par.n, 0);
for (const name of ['squares', 'lengths', 'deadends', 'classes', 'boards', 'claims']) {
  const [rs] = await q(`SELECT count(*) FILTER (WHERE rule_spec IS NULL OR rule_spec = '' OR NOT starts_with(rule_spec, rule::VARCHAR)) AS bad,
    count(DISTINCT rule_spec) - count(DISTINCT rule) AS extra FROM ${t(name)}`);
  check(`${name}: rule_spec non-null, begins with the rule, one per rule`, Number(rs.bad) + Number(rs.extra ?? 0), 0);
}
const [rsj] = await q(`SELECT count(*) AS n FROM ${t('boards')} b JOIN ${t('squares')} q USING (board, rule_spec)`);
check('boards join squares on (board, rule_spec) row for row', rsj.n, sq.rows);
const [ct] = await q(`SELECT count(*) AS n FROM ${t('claims')} WHERE test = ''`);
check('claims: test is null, never "", where it does not apply', ct.n, 0);
const [cmp] = await q(`SELECT count(*) FILTER (WHERE p_holm < p_value OR p_holm > 1) AS bad,
  count(*) FILTER (WHERE compare = 'groups' AND rule_a <> rule_b) AS g,
  count(*) FILTER (WHERE compare = 'rules' AND group_a <> group_b) AS r,
  count(*) FILTER (WHERE abs(rate_a - successes_a / walks_a) > 1e-12) AS rates FROM ${t('comparisons')}`);
check('comparisons: p_value <= p_holm <= 1', cmp.bad, 0);
check('comparisons: groups compared under one rule, rules on one group', Number(cmp.g) + Number(cmp.r), 0);
check('comparisons: rate_a = successes_a / walks_a', cmp.rates, 0);
const [cmpc] = await q(`SELECT count(*) AS n FROM ${t('comparisons')} m JOIN ${t('classes')} c
  ON c.board = m.board AND c.rule = m.rule_a AND c."group" = m.group_a AND c.group_by = 'class'
  WHERE c.walks <> m.walks_a OR c.successes <> m.successes_a`);
check("comparisons: side a's counts are its class's", cmpc.n, 0);
if (manifest.tables.includes('walks.parquet')) {
  const [wo] = await q(`SELECT count(*) FILTER (WHERE outcome IN ('success', 'closed')) AS s,
    count(*) FILTER (WHERE outcome = 'stopped') AS st FROM ${t('walks')}`);
  check('walks: success and closed outcomes are the successes', wo.s, manifest.successes);
  check('walks: stopped outcomes as in squares', wo.st, sq.st);
}
const bad = await q(`SELECT count(*) AS n FROM ${t('claims')} WHERE verdict NOT IN ('consistent', 'refuted', 'inconclusive')`);
check('claims: every verdict is valid', bad[0].n, 0);
const iv = await q(`SELECT count(*) AS n FROM ${t('squares')} WHERE NOT (success_lo <= success_rate AND success_rate <= success_hi)`);
check('squares: every rate lies in its interval', iv[0].n, 0);
console.log(`duckdb: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
