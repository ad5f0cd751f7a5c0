#!/usr/bin/env node
// Bench inputs shaped like a Neuron Explorer profile (schema 7.4.0 field names
// and types), written at bench time by DuckDB's own Parquet writer (snappy,
// default row groups), and DuckDB's side of the Parquet query bench.
//
//   gen_explorer.mjs gen DIR N [JSON]  DIR/{Metadata,Summary,Instruction,DmaPacket,ActiveTime,
//                                      DmaPacketAggregated,Flow}.parquet
//                                      with N Instruction rows (all 55 columns) and N DmaPacket rows
//                                      (all 17); JSON gets the same 2N events as one JSON document
//                                      {"instruction":[...],"dma":[...]} holding the columns nx's
//                                      importer maps (the baseline for the decode bench).
//   gen_explorer.mjs gen-session DIR N E
//                                      the same tables and rows as gen (no JSON), and an
//                                      ExecutionInfo of E executions splitting the instructions
//                                      evenly, two NEFFs in turn: a session of E executions (E = 1:
//                                      the same events as one execution).
//   gen_explorer.mjs query DIR         times SELECT engine, count(*), sum(duration_ns) ... GROUP BY
//                                      engine over DIR/Instruction*.parquet (best of 3, one thread);
//                                      prints {"name":"duckdb_group_by","value":seconds,"unit":"s"}.
//
// Needs node 20 and the npm packages of the Parquet fixtures, resolved from
// $NX_NPM_DIR (default /work/npm-fixtures):
//   mkdir -p /work/npm-fixtures && cd /work/npm-fixtures && npm init -y &&
//     npm install @duckdb/node-api@1.5.6-r.1
// `make bench` skips the Parquet benches (and says why) when either is missing.
// The data are a pure function of N (no PRNG state, one DuckDB thread).
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

const NPM_DIR = path.resolve(process.env.NX_NPM_DIR || '/work/npm-fixtures');
const req = createRequire(path.join(NPM_DIR, 'package.json'));
const duckdb = await import(pathToFileURL(req.resolve('@duckdb/node-api')).href);

const [cmd, dir, nArg, fourth] = process.argv.slice(2);
const session = cmd === 'gen-session';
const jsonOut = session ? undefined : fourth;
const E = session ? Number(fourth) : 0;
const isCount = (x) => /^\d+$/.test(x || '');
if (!((cmd === 'gen' || (session && isCount(fourth) && E >= 1)) && dir && isCount(nArg)) && !(cmd === 'query' && dir)) {
  console.error('usage: gen_explorer.mjs gen DIR N [JSON] | gen_explorer.mjs gen-session DIR N E | gen_explorer.mjs query DIR');
  process.exit(2);
}
const inst = await duckdb.DuckDBInstance.create(':memory:', { threads: '1' });
const con = await inst.connect();
const q = (s) => `'${s.replace(/'/g, "''")}'`;

if (cmd === 'query') {
  const sql = `SELECT engine, count(*) AS n, sum(duration_ns) AS busy FROM read_parquet(${q(path.join(dir, 'Instruction*.parquet'))}) GROUP BY engine`;
  let best = Infinity;
  for (let k = 0; k < 3; k++) {
    const t0 = process.hrtime.bigint();
    await con.runAndReadAll(sql);
    best = Math.min(best, Number(process.hrtime.bigint() - t0) / 1e9);
  }
  console.log(JSON.stringify({ name: 'duckdb_group_by', value: +best.toFixed(6), unit: 's' }));
  process.exit(0);
}

const N = Number(nArg);
const T0 = 10261883214;
// h(i, k): a deterministic scramble of the row number (k picks the stream).
await con.run('CREATE MACRO h(i, k) AS (((i + 7919 * k) * (2654435761 + 2246822519 * k)) % 1000003)');

// Instruction: engines in a 3:3:2:1:1 mix, one instruction every 10 ns
// overall, durations 40..239 ns; the null pattern of a real device profile.
await con.run(`CREATE VIEW instr_base AS
SELECT i, ${T0} + i * 10 AS s, 40 + h(i, 1) % 200 AS d,
       CASE h(i, 2) % 10 WHEN 0 THEN 'Tensor' WHEN 1 THEN 'Tensor' WHEN 2 THEN 'Tensor' WHEN 3 THEN 'Vector'
            WHEN 4 THEN 'Vector' WHEN 5 THEN 'Vector' WHEN 6 THEN 'Scalar' WHEN 7 THEN 'Scalar'
            WHEN 8 THEN 'GpSimd' ELSE 'Sync' END AS engine,
       h(i, 3) AS r
FROM range(${N}) t(i)`);
await con.run(`CREATE VIEW instr_op AS
SELECT *, CASE engine
  WHEN 'Tensor' THEN ['MATMUL', 'MultiplyMoving', 'LoadStationary'][1 + r % 3]
  WHEN 'Vector' THEN ['TENSOR_TENSOR', 'TENSOR_SCALAR', 'TENSOR_REDUCE'][1 + r % 3]
  WHEN 'Scalar' THEN CASE WHEN r % 9 = 0 THEN 'NOP' ELSE 'ACTIVATE' END
  WHEN 'GpSimd' THEN ['IOTA', 'AFFINE_SELECT', 'NOP'][1 + r % 3]
  ELSE ['EVENT_SEMAPHORE', 'WRITE', 'DRAIN', 'NOP'][1 + r % 4] END AS op,
  (i // 2000) % 64 AS blk, (i // 20000) % 32 AS lay
FROM instr_base`);
await con.run(`CREATE VIEW instr AS
SELECT
  s::BIGINT AS start_ts, (s + d)::BIGINT AS end_ts, d::BIGINT AS duration_ns, engine,
  CASE WHEN op IN ('MATMUL', 'MultiplyMoving') THEN 'TensorMatrix' ELSE engine END AS timeline_track,
  0::BIGINT AS pcore_idx, op AS opcode,
  CASE WHEN op = 'EVENT_SEMAPHORE' THEN 'sem=' || (r % 16) || ' wait>=1'
       ELSE 'src=sb:0x' || printf('%x', (r % 256) * 256) || '[128x' || (128 << (r % 3)) || '] dst=' ||
            CASE engine WHEN 'Tensor' THEN 'psum' ELSE 'sb' END || ':0x' || printf('%x', (h(i, 4) % 64) * 512) END AS operands,
  op AS compiler_opcode, NULL::VARCHAR AS compiler_operands, i::BIGINT AS id, (i // 5 * 16)::BIGINT AS pc,
  (i // 5 * 16)::BIGINT AS compiler_pc,
  CASE WHEN op = 'EVENT_SEMAPHORE' THEN NULL ELSE 'p' || (r % 9 + 1) END AS penguin_id,
  CASE WHEN op = 'EVENT_SEMAPHORE' THEN NULL ELSE r % 9 + 1 END::BIGINT AS raw_penguin_id,
  (1000 + i)::VARCHAR AS bir_id, (4294967296 + 1000 + i)::BIGINT AS raw_bir_id,
  lower(op) || '_' || i AS bir_instruction_name,
  CASE WHEN engine = 'Tensor' THEN 'matmul_kernel' END AS kernel_instruction_name,
  NULL::BIGINT AS crc_in, NULL::BIGINT AS crc_out,
  CASE WHEN op = 'EVENT_SEMAPHORE' THEN d - 20 ELSE 0 END::BIGINT AS evt_wait_time_ns,
  NULL::VARCHAR AS hlo_attrs,
  CASE WHEN engine = 'Sync' THEN NULL
       ELSE CASE engine WHEN 'Tensor' THEN 'dot.' WHEN 'Vector' THEN 'add.' WHEN 'Scalar' THEN 'gelu.' ELSE 'iota.' END || blk END AS hlo_name,
  CASE WHEN engine = 'Sync' THEN NULL ELSE blk END::BIGINT AS raw_hlo_id,
  CASE WHEN op = 'EVENT_SEMAPHORE' THEN NULL ELSE 1 END::BIGINT AS raw_framework_id,
  CASE WHEN op = 'EVENT_SEMAPHORE' THEN NULL ELSE 'model/layers.' || lay || '/mlp' END AS layer,
  CASE WHEN op = 'EVENT_SEMAPHORE' THEN NULL ELSE '[' || (100 + lay) || ', ' || (200 + blk) || ']' END AS stack_frame_ids,
  CASE WHEN engine = 'Tensor' THEN 'matmul_kernel.py:' || (40 + r % 8) END AS nki_source_location,
  NULL::VARCHAR AS bir_debug_info_source_location, NULL::BIGINT AS dma_trigger_start_ts,
  NULL::BIGINT AS dma_trigger_end_ts, 0::BIGINT AS dma_wait_time_ns, NULL::VARCHAR AS instruction_chain,
  CASE WHEN op = 'WRITE' THEN 4096 * (1 + r % 8) ELSE 0 END::BIGINT AS hbm_read_bytes,
  CASE WHEN op = 'WRITE' THEN 4096 * (r % 4) ELSE 0 END::BIGINT AS hbm_write_bytes,
  CASE WHEN op IN ('EVENT_SEMAPHORE', 'NOP') THEN 0 ELSE 32768 END::BIGINT AS sbuf_read_bytes,
  CASE WHEN engine IN ('Vector', 'Scalar', 'GpSimd') AND op <> 'NOP' THEN 32768 ELSE 0 END::BIGINT AS sbuf_write_bytes,
  0::BIGINT AS spill_save_bytes, 0::BIGINT AS spill_reload_bytes,
  CASE WHEN op = 'ACTIVATE' THEN 65536 ELSE 0 END::BIGINT AS psum_read_bytes,
  CASE WHEN op IN ('MATMUL', 'MultiplyMoving') THEN 65536 ELSE 0 END::BIGINT AS psum_write_bytes,
  CASE WHEN op = 'ACTIVATE' THEN 32768 ELSE 0 END::BIGINT AS psum_read_sbuf_write_bytes,
  CASE WHEN op = 'WRITE' THEN 4096 ELSE 0 END::BIGINT AS input_queue_bytes,
  CASE WHEN op = 'ACTIVATE' AND r % 5 = 0 THEN 8192 ELSE 0 END::BIGINT AS output_queue_bytes,
  0::BIGINT AS weight_queue_bytes, NULL::VARCHAR AS performance_mode,
  CASE WHEN engine = 'Tensor' THEN CASE WHEN r % 17 = 0 THEN 'TRANSPOSE' ELSE 'REGULAR' END END AS tensor_instruction_type,
  CASE WHEN engine = 'Tensor' THEN 16384 END::BIGINT AS tensor_elements,
  CASE op WHEN 'MATMUL' THEN 8388608 WHEN 'MultiplyMoving' THEN 4194304 WHEN 'LoadStationary' THEN 0 END::BIGINT AS raw_flops,
  CASE op WHEN 'MATMUL' THEN 8388608 WHEN 'MultiplyMoving' THEN 4194304 WHEN 'LoadStationary' THEN 0 END::BIGINT AS adjusted_flops,
  CASE WHEN engine = 'Tensor' THEN 0 END::BIGINT AS tensor_elements_transpose,
  CASE WHEN engine = 'Tensor' THEN 0 END::BIGINT AS flops_transpose,
  CASE WHEN engine = 'Tensor' THEN 0 END::BIGINT AS adjusted_flops_transpose,
  CASE WHEN op = 'ACTIVATE' THEN ['gelu', 'exp', 'silu'][1 + r % 3] END AS scalar_activation_fn
FROM instr_op`);

// DmaPacket: 16 queues, packets of 4 per transfer, one packet every 10 ns.
await con.run(`CREATE VIEW dma AS
WITH b AS (SELECT i, h(i, 5) AS r, h(i, 6) % 16 AS qn, 300 + h(i, 7) % 1500 AS d, 512 << (h(i, 8) % 4) AS sz,
                  ${T0} + 500 + i * 10 AS s FROM range(${N}) t(i))
SELECT s::BIGINT AS start_ts, (s + d)::BIGINT AS end_ts, d::BIGINT AS duration_ns, 0::BIGINT AS pcore_idx,
  i::BIGINT AS id, (i % 4)::INTEGER AS packet_idx, (i // 4)::BIGINT AS packet_aggregation_id, qn::BIGINT AS engine_idx,
  sz::BIGINT AS read_bytes, sz::BIGINT AS write_bytes, sz::BIGINT AS transfer_bytes,
  (sz * 1e9 / d)::FLOAT AS throughput,
  ['input', 'output', 'data', 'instruction', 'software_dynamic', 'hardware_dynamic'][1 + qn % 6] AS queue_type,
  CASE qn % 6 WHEN 0 THEN 'input' || (qn // 6) WHEN 1 THEN 'output' || (qn // 6) WHEN 2 THEN 'spill' || (qn // 6)
              WHEN 4 THEN 'weight' || (qn // 6) END AS variable,
  ['qSyncIO', 'qSyncIO', 'qSpillReload', 'qInstrFetch', 'qSwDge', 'qHwDge'][1 + qn % 6] || qn AS queue_name,
  qn::BIGINT AS queue_idx, (r * 7919)::BIGINT AS crc
FROM b`);

// DmaPacketAggregated: the transfers the packets make up (4 each); Flow: each
// transfer waits for instruction 4j and feeds instruction 4j + 200, so the
// dependency chains run the length of the profile (the critical_path bench).
await con.run(`CREATE VIEW dma_block AS
SELECT min(start_ts)::BIGINT AS start_ts, max(end_ts)::BIGINT AS end_ts, (max(end_ts) - min(start_ts))::BIGINT AS duration_ns,
  packet_aggregation_id AS id, 0::BIGINT AS pcore_idx, packet_aggregation_id::INTEGER AS block_id, min(queue_idx) AS queue_idx,
  min(queue_name) AS queue_name, min(queue_type) AS queue_type, 'copy' AS op, min(variable) AS variable,
  sum(read_bytes)::BIGINT AS read_bytes, sum(write_bytes)::BIGINT AS write_bytes, sum(transfer_bytes)::BIGINT AS transfer_bytes
FROM dma GROUP BY packet_aggregation_id ORDER BY id`);
await con.run(`CREATE VIEW flow AS
SELECT * FROM (
  SELECT (4 * id)::BIGINT AS in_id, id::BIGINT AS out_id, 'instruction' AS in_table, 'dma_block' AS out_table,
         'FLOW_DEPENDENCE' AS dependency_type, 10::BIGINT AS gap_time FROM dma_block
  UNION ALL
  SELECT id::BIGINT, (4 * id + 200)::BIGINT, 'dma_block', 'instruction', 'FLOW_DEPENDENCE', 10::BIGINT
  FROM dma_block WHERE 4 * id + 200 < ${N}) ORDER BY in_table, in_id`);

// ActiveTime: each engine's busy time in blocks of 1000 instructions (the
// profiler merges intervals; the row count, not the exact union, matters here).
await con.run(`CREATE VIEW active AS
SELECT min(start_ts)::BIGINT AS start_ts, max(end_ts)::BIGINT AS end_ts, lower(engine) AS engine, 0::BIGINT AS pcore_idx,
       (max(end_ts) - min(start_ts))::BIGINT AS duration_ns
FROM instr WHERE opcode <> 'EVENT_SEMAPHORE' GROUP BY engine, start_ts // 10000 ORDER BY 1, 3`);

const agg = (await con.runAndReadAll(`SELECT
  (SELECT max(end_ts) FROM instr) AS ie, (SELECT max(end_ts) FROM dma) AS de,
  (SELECT sum(raw_flops) FROM instr) AS flops,
  (SELECT sum(transfer_bytes) FROM dma) AS dma_bytes`)).getRowObjectsJS()[0];
const last = Math.max(Number(agg.ie), Number(agg.de)) + 1000;
const totalS = (last - T0) / 1e9;
const counts = Object.fromEntries((await con.runAndReadAll('SELECT engine, count(*) AS n FROM instr GROUP BY engine'))
  .getRowObjectsJS().map((r) => [r.engine.toLowerCase(), Number(r.n)]));

// Metadata: the 38 columns of 7.4.0, one row.
const md = {
  profile_schema_version: ['7.4.0', 'VARCHAR'], ntff_version: [6, 'INTEGER'], num_physical_cores: [1, 'INTEGER'],
  vnc_enabled: [false, 'BOOLEAN'], first_hw_timestamp: [T0, 'BIGINT'], last_hw_timestamp: [last, 'BIGINT'],
  first_ts: ['0.000000 ms', 'VARCHAR'], last_ts: [`${((last - T0) / 1e6).toFixed(6)} ms`, 'VARCHAR'],
  dma_ddr_bandwidth: [1.6e11, 'FLOAT'], num_dma_engines_per_neuroncore: [16, 'INTEGER'], hbm_ddr_bandwidth: [7.2e11, 'FLOAT'],
  tensor_engine_num_rows: [128, 'BIGINT'], tensor_engine_num_cols: [128, 'BIGINT'], tensor_engine_clock_freq: [1.4, 'FLOAT'],
  vector_engine_clock_freq: [1.4, 'FLOAT'], vector_engine_num_channels: [128, 'BIGINT'], scalar_engine_clock_freq: [1.4, 'FLOAT'],
  scalar_engine_num_channels: [128, 'BIGINT'], gpsimd_engine_clock_freq: [1.4, 'FLOAT'], gpsimd_engine_num_channels: [8, 'BIGINT'],
  neuroncore_clock_freq: [1.4, 'FLOAT'], ticks_per_nanosec: [1, 'BIGINT'], instance_type: ['trn2.48xlarge', 'VARCHAR'],
  runtime_version: ['2.99.0+bench', 'VARCHAR'], collectives_version: ['2.99.0+bench', 'VARCHAR'], driver_version: ['2.99.0+bench', 'VARCHAR'],
  explorer_version: ['2.99.0+bench', 'VARCHAR'], compiler_version: ['2.99.0+bench', 'VARCHAR'], neuroncore_idx: [0, 'BIGINT'],
  neuron_device_idx: [0, 'BIGINT'], ultraserver_id: [null, 'BIGINT'], ultraserver_type: [null, 'VARCHAR'], ultraserver_size: [null, 'INTEGER'],
  ultraserver_instance_index: [null, 'INTEGER'], s3_bucket_path: [null, 'VARCHAR'], profile_name: [`bench_${N}`, 'VARCHAR'],
  explorer_build_time: ['2025-06-01T00:00:00Z', 'VARCHAR'], is_simulation: [false, 'BOOLEAN'],
};
// Summary: the 101 columns of 7.4.0 (f = FLOAT seconds/percent, i = BIGINT);
// the counts and totals follow from the rows, the rest are plausible constants.
const SUMMARY = 'total_time f, neuroncore_cycle_count i, model_flops i, hardware_flops i, transpose_flops i, adjusted_hardware_flops i, ' +
  'adjusted_transpose_flops i, mm_arithmetic_intensity f, peak_flops_bandwidth_ratio f, trace_count i, event_count i, total_row_count i, ' +
  'dma_active_cycles i, dma_active_time f, dma_active_time_percent f, static_dma_active_time f, dynamic_dma_active_time_percent f, ' +
  'static_dma_active_time_percent f, dma_transfer_average_bytes f, dma_packet_time f, dma_transfer_time f, dma_transfer_count i, ' +
  'dma_transfer_total_bytes i, dma_queue_count i, inputs_and_weights_size_bytes i, inputs_outputs_weights_size_bytes i, weight_size_bytes i, ' +
  'static_dma_packet_count i, static_dma_size i, dynamic_dma_packet_percent f, static_dma_packet_percent f, dynamic_dma_size_percent f, ' +
  'static_dma_size_percent f, mbu_estimated_percent f, mbu_min_read_util_percent f, hbm_write_bytes i, hbm_read_bytes i, sbuf_write_bytes i, ' +
  'sbuf_read_bytes i, spill_save_bytes i, spill_reload_bytes i, psum_write_bytes i, psum_read_bytes i, psum_read_sbuf_write_count i, ' +
  'psum_read_sbuf_write_bytes i, input_queue_bytes i, output_queue_bytes i, weight_queue_bytes i, software_dynamic_dma_active_time f, ' +
  'software_dynamic_dma_active_time_percent f, software_dynamic_dma_packet_count i, software_dynamic_dma_size i, ' +
  'software_dynamic_dma_packet_percent f, software_dynamic_dma_size_percent f, hardware_dynamic_dma_active_time f, ' +
  'hardware_dynamic_dma_active_time_percent f, hardware_dynamic_dma_packet_count i, hardware_dynamic_dma_size i, ' +
  'hardware_dynamic_dma_packet_percent f, hardware_dynamic_dma_size_percent f, tensor_engine_instruction_time f, tensor_engine_active_time f, ' +
  'tensor_engine_active_time_percent f, tensor_engine_instruction_count i, matmul_instruction_count i, mfu_estimated_percent f, ' +
  'mfu_max_achievable_estimated_percent f, mfu_hlo_estimated_percent f, mfu_hlo_max_achievable_estimated_percent f, ' +
  'mfu_inst_estimated_percent f, mfu_inst_max_achievable_estimated_percent f, hfu_estimated_percent f, vector_engine_instruction_time f, ' +
  'vector_engine_active_time f, vector_engine_active_time_percent f, vector_engine_instruction_count i, scalar_engine_instruction_time f, ' +
  'scalar_engine_active_time f, scalar_engine_active_time_percent f, scalar_engine_instruction_count i, activate_instruction_time f, ' +
  'activate_instruction_count i, sync_engine_instruction_time f, sync_engine_active_time f, sync_engine_active_time_percent f, ' +
  'sync_engine_instruction_count i, gpsimd_engine_instruction_time f, gpsimd_engine_active_time f, gpsimd_engine_active_time_percent f, ' +
  'gpsimd_engine_instruction_count i, cc_op_time f, cc_op_active_time f, cc_op_active_time_percent f, cc_op_count i, cc_cores_instruction_time f, ' +
  'cc_cores_instruction_active_time f, cc_cores_instruction_active_time_percent f, cc_cores_instruction_count i, total_exec_time f, ' +
  'total_active_time f, total_active_time_percent f';
const known = {
  total_time: totalS, neuroncore_cycle_count: Math.round((last - T0) * 1.4), model_flops: Number(agg.flops),
  hardware_flops: Number(agg.flops), trace_count: 1, event_count: 2 * N, total_row_count: 2 * N + 2,
  dma_transfer_count: N, dma_transfer_total_bytes: Number(agg.dma_bytes), dma_queue_count: 16,
  tensor_engine_instruction_count: counts.tensor || 0, vector_engine_instruction_count: counts.vector || 0,
  scalar_engine_instruction_count: counts.scalar || 0, sync_engine_instruction_count: counts.sync || 0,
  gpsimd_engine_instruction_count: counts.gpsimd || 0, total_exec_time: totalS,
};
const summary = Object.fromEntries(SUMMARY.split(', ').map((s) => {
  const [name, t] = s.split(' ');
  // Percents as real exports write them: fractions of 1 (neuron-explorer-parquet.md section 12).
  const v = known[name] ?? (name.endsWith('_percent') ? 0.425 : 0);
  return [name, [v, t === 'f' ? 'FLOAT' : 'BIGINT']];
}));
const oneRow = (cols) => 'SELECT ' + Object.entries(cols).map(([k, [v, t]]) =>
  `${v === null ? 'NULL' : typeof v === 'string' ? q(v) : String(v)}::${t} AS ${k}`).join(', ');

fs.mkdirSync(dir, { recursive: true });
const copy = async (sel, table) =>
  con.run(`COPY (${sel}) TO ${q(path.join(dir, table + '.parquet'))} (FORMAT parquet, COMPRESSION 'snappy')`);
await copy(oneRow(md), 'Metadata');
await copy(oneRow(summary), 'Summary');
await copy('SELECT * FROM instr', 'Instruction');
await copy('SELECT * FROM dma', 'DmaPacket');
await copy('SELECT * FROM active', 'ActiveTime');
await copy('SELECT * FROM dma_block', 'DmaPacketAggregated');
await copy('SELECT * FROM flow', 'Flow');
if (session) {
  // Execution k holds instructions [k N / E, (k + 1) N / E); the last ends
  // with the profile.
  await copy(`SELECT k::INTEGER AS execution_index,
      CASE k % 2 WHEN 0 THEN 'graph_a.neff' ELSE 'graph_b.neff' END AS neff_name,
      (${T0} + (k * ${N}) // ${E} * 10)::BIGINT AS execution_start_ts,
      CASE WHEN k = ${E} - 1 THEN ${last} ELSE ${T0} + ((k + 1) * ${N}) // ${E} * 10 END::BIGINT AS execution_end_ts,
      1::INTEGER AS num_subgraphs, ((${N} // ${E}) * 2)::BIGINT AS row_count
    FROM range(${E}) t(k)`, 'ExecutionInfo');
}

if (jsonOut) {
  // The columns explorer_parquet.cpp maps, as DuckDB's JSON writer spells them.
  const parts = [
    ['instruction', 'SELECT start_ts, end_ts, duration_ns, engine, timeline_track, pcore_idx, opcode, hlo_name, layer, raw_flops, tensor_instruction_type FROM instr'],
    ['dma', 'SELECT start_ts, end_ts, duration_ns, queue_name, queue_type, transfer_bytes, variable, pcore_idx FROM dma'],
  ];
  const out = fs.openSync(jsonOut, 'w');
  const buf = Buffer.alloc(1 << 20);
  for (const [k, sel] of parts) {
    const tmp = `${jsonOut}.${k}.tmp`;
    await con.run(`COPY (${sel}) TO ${q(tmp)} (FORMAT json, ARRAY true)`);
    fs.writeSync(out, k === 'instruction' ? '{"instruction":' : ',"dma":');
    const fd = fs.openSync(tmp, 'r');
    for (let n; (n = fs.readSync(fd, buf, 0, buf.length)) > 0;) fs.writeSync(out, buf, 0, n);
    fs.closeSync(fd);
    fs.unlinkSync(tmp);
  }
  fs.writeSync(out, '}\n');
  fs.closeSync(out);
}
