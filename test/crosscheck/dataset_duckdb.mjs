#!/usr/bin/env node
// An nx dataset read by DuckDB as nx(7) tells users to read it, against
// nx-query over the same files: every named dataset query (queries/dataset/)
// runs in both, and the rows must be equal; then each table's row count and
// DuckDB's own per-rank engine busy time from the engines table against
// nx-query's.  Also read by arrow-rs (parquet-wasm): every file of every
// table decodes, with the row counts DuckDB sees.
//
//   NX_NPM_DIR=/work/npm-fixtures node test/crosscheck/dataset_duckdb.mjs DATASET [NX_BIN]
//
// Exit 0 when everything agrees, 1 with each difference printed.  Not part of
// make test (node is not needed there); test/72-dataset.bats runs it when
// node and the npm packages are present.
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { pathToFileURL, fileURLToPath } from 'node:url';

const [dataset, binArg] = process.argv.slice(2);
if (!dataset) {
  console.error('usage: dataset_duckdb.mjs DATASET [NX_BIN]');
  process.exit(2);
}
const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const bin = binArg || path.join(root, 'build/bin');
const NPM_DIR = path.resolve(process.env.NX_NPM_DIR || '/work/npm-fixtures');
const req = createRequire(path.join(NPM_DIR, 'package.json'));
const imp = (m) => import(pathToFileURL(req.resolve(m)).href);
const duckdb = await imp('@duckdb/node-api');
const pw = await imp('parquet-wasm/node');
const A = await imp('apache-arrow');

const TABLES = ['profiles', 'metrics', 'engines', 'breakdown', 'utilization', 'collectives', 'findings', 'opcodes', 'executions',
                'tracks', 'events', 'counters'];
const con = await (await duckdb.DuckDBInstance.create(':memory:', { threads: '1' })).connect();
// As nx(7) gives it: one view per table, the rank partition from the path.
for (const t of TABLES) {
  const glob = path.join(dataset, t, '**', '*.parquet');
  const any = fs.existsSync(path.join(dataset, t));
  await con.run(any
    ? `CREATE VIEW ${t} AS SELECT * FROM read_parquet('${glob}', hive_partitioning = true, union_by_name = true)`
    : `CREATE VIEW ${t} AS SELECT NULL AS rank WHERE false`);
}

// Fractions to 6 places; integers as they are (scaling a large one by 1e6
// would round it).
const norm = (v) => (typeof v === 'bigint' ? Number(v)
  : typeof v === 'number' && !Number.isInteger(v) ? Math.round(v * 1e6) / 1e6 : v);
const rowsOf = (objs) => objs.map((o) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, norm(v)])));
let failures = 0;
const differ = (what, a, b) => {
  // Rows: the first that differs, not the first 600 characters of each.
  if (Array.isArray(a) && Array.isArray(b)) {
    const k = a.findIndex((row, i) => JSON.stringify(row) !== JSON.stringify(b[i]));
    const at = k < 0 ? a.length : k;
    [what, a, b] = [`${what} (row ${at} of ${a.length} / ${b.length})`, a[at], b[at]];
  }
  const text = (v) => JSON.stringify(v, (key, x) => (typeof x === 'bigint' ? x.toString() : x)).slice(0, 600);
  console.log(`DIFFERS: ${what}\n  duckdb: ${text(a)}\n  nx:     ${text(b)}`);
  failures++;
};

function nxQuery(args) {
  const out = execFileSync(path.join(bin, 'nx-query'), ['--dataset', dataset, '--format', 'jsonl', ...args],
                           { encoding: 'utf8', maxBuffer: 1 << 30 });
  return rowsOf(out.split('\n').filter((l) => l).map((l) => JSON.parse(l)));
}

// Named queries: their :params left NULL (each one's default).
const qdir = path.join(root, 'queries', 'dataset');
for (const f of fs.readdirSync(qdir).filter((f) => f.endsWith('.sql')).sort()) {
  const name = f.replace(/\.sql$/, '');
  const sql = fs.readFileSync(path.join(qdir, f), 'utf8').replace(/:[a-z_]+/g, 'NULL');
  const duck = rowsOf((await con.runAndReadAll(sql)).getRowObjectsJS());
  const nx = nxQuery([name]);
  if (JSON.stringify(duck) !== JSON.stringify(nx)) differ(`named query ${name}`, duck, nx);
  else console.log(`same: ${name} (${nx.length} rows)`);
}

// Row counts per table and rank.
for (const t of TABLES) {
  const sql = `SELECT rank, COUNT(*) AS n FROM ${t} GROUP BY rank ORDER BY rank NULLS FIRST`;
  const duck = rowsOf((await con.runAndReadAll(sql)).getRowObjectsJS());
  const nx = nxQuery(['--sql', sql]);
  if (JSON.stringify(duck) !== JSON.stringify(nx)) differ(`rows of ${t}`, duck, nx);
  else console.log(`same: rows of ${t} (${duck.reduce((s, r) => s + r.n, 0)})`);
}

// The events' and counters' values, per profile and track: the same in
// DuckDB as in nx's own reader (every page, whichever lane wrote it, and
// the dictionary and PLAIN pages of one chunk).  Times are summed modulo a
// prime: a PyTorch trace's are nanoseconds since 1970, and a few thousand
// of them overflow SQLite's 64-bit SUM (DuckDB's is 128-bit).
const DIGESTS = {
  events: `SELECT profile, track_id, COUNT(*) AS n, MIN(ts) AS min_ts, MAX(ts) AS max_ts,
           SUM(ts % 1000000007) AS ts_mod, SUM(dur % 1000000007) AS dur_mod, COUNT(name) AS names,
           SUM(LENGTH(name)) AS name_chars, MIN(name) AS min_name, MAX(name) AS max_name, SUM(LENGTH(args)) AS args_chars,
           SUM(depth) AS depth FROM events GROUP BY 1, 2 ORDER BY 1, 2`,
  counters: `SELECT profile, track_id, COUNT(*) AS n, MIN(ts) AS min_ts, MAX(ts) AS max_ts,
             SUM(ts % 1000000007) AS ts_mod, SUM(value) AS value FROM counters GROUP BY 1, 2 ORDER BY 1, 2`,
};
for (const [t, sql] of Object.entries(DIGESTS)) {
  const duck = rowsOf((await con.runAndReadAll(sql)).getRowObjectsJS());
  const nx = nxQuery(['--sql', sql]);
  if (JSON.stringify(duck) !== JSON.stringify(nx)) differ(`values of ${t}`, duck, nx);
  else console.log(`same: values of ${t} (${duck.length} tracks)`);
}

// arrow-rs decodes every file, with DuckDB's row count (and, for events,
// the sum of ts and of the names' lengths).
let arrowTs = 0n, arrowNameChars = 0;
for (const t of TABLES) {
  const dir = path.join(dataset, t);
  if (!fs.existsSync(dir)) continue;
  let rows = 0;
  for (const part of fs.readdirSync(dir)) {
    for (const file of fs.readdirSync(path.join(dir, part)).filter((f) => f.endsWith('.parquet'))) {
      const table = A.tableFromIPC(pw.readParquet(fs.readFileSync(path.join(dir, part, file))).intoIPCStream());
      rows += table.numRows;
      if (t === 'events') {
        const ts = table.getChild('ts'), name = table.getChild('name');
        for (let i = 0; i < table.numRows; i++) {
          arrowTs += BigInt(ts.get(i));
          arrowNameChars += (name.get(i) || '').length;
        }
      }
    }
  }
  const duck = norm((await con.runAndReadAll(`SELECT COUNT(*) AS n FROM ${t}`)).getRowObjectsJS()[0].n);
  if (rows !== duck) differ(`arrow-rs rows of ${t}`, duck, rows);
}
{
  const d = (await con.runAndReadAll('SELECT SUM(ts) AS ts, SUM(LENGTH(name)) AS chars FROM events')).getRowObjectsJS()[0];
  if (BigInt(d.ts ?? 0) !== arrowTs || norm(d.chars ?? 0) !== arrowNameChars)
    differ('arrow-rs sums of events (ts, name characters)', [d.ts, d.chars], [arrowTs, arrowNameChars]);
}
console.log(failures ? `${failures} difference(s)` : 'DuckDB, arrow-rs and nx-query agree');
process.exit(failures ? 1 : 0);
