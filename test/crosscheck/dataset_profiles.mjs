#!/usr/bin/env node
// What DuckDB reads of an nx dataset, read as nx(7) tells users to read it
// (read_parquet over DIR/<table>/**/*.parquet, the rank from the path):
// "files TABLE RANK STEM" for every file its glob of each table takes, and
// "rows RANK PROFILE" for the profiles table's rows, sorted, the null
// partition as __HIVE_DEFAULT_PARTITION__.  The commit checks
// (test/bench/commit_kills) compare it with nx's readers.
//
//   NX_NPM_DIR=/work/npm-fixtures node test/crosscheck/dataset_profiles.mjs DATASET
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

const [dataset] = process.argv.slice(2);
if (!dataset) {
  console.error('usage: dataset_profiles.mjs DATASET');
  process.exit(2);
}
const NPM_DIR = path.resolve(process.env.NX_NPM_DIR || '/work/npm-fixtures');
const req = createRequire(path.join(NPM_DIR, 'package.json'));
const duckdb = await import(pathToFileURL(req.resolve('@duckdb/node-api')).href);
const TABLES = ['profiles', 'metrics', 'engines', 'breakdown', 'utilization', 'collectives', 'findings', 'opcodes', 'executions',
                'tracks', 'events', 'counters'];
const con = await (await duckdb.DuckDBInstance.create(':memory:', { threads: '1' })).connect();
const lines = [];
for (const t of TABLES) {
  if (!fs.existsSync(path.join(dataset, t))) continue;
  const files = (await con.runAndReadAll(`SELECT file FROM glob('${path.join(dataset, t, '**', '*.parquet')}')`)).getRowObjects();
  for (const { file } of files) {
    const m = /\/rank=([^/]+)\/([^/]+)\.parquet$/.exec(file);
    lines.push(m ? `files ${t} ${m[1]} ${m[2]}` : `files ${t} ? ${file}`);
  }
}
if (fs.existsSync(path.join(dataset, 'profiles'))) {
  try {
    const r = await con.runAndReadAll(`SELECT coalesce(CAST(rank AS VARCHAR), '__HIVE_DEFAULT_PARTITION__') AS r, profile
        FROM read_parquet('${path.join(dataset, 'profiles', '**', '*.parquet')}', hive_partitioning = true, union_by_name = true)`);
    for (const row of r.getRowObjects()) lines.push(`rows ${row.r} ${row.profile}`);
  } catch (e) {
    if (!/No files found/.test(String(e))) throw e;
  }
}
lines.sort();
process.stdout.write(lines.map((l) => l + '\n').join(''));
