#!/usr/bin/env node
// Cross-check, run by hand (not a fixture generator, not part of `make test`):
// rewrites one neuron-profile `view --output-format json` file as the Neuron
// Explorer Parquet directory that neuron-explorer would write for the same
// capture, so that nx's two importers (neuron_json.cpp, explorer_parquet.cpp)
// can be fed "one profile, two formats" and their answers compared
// (compare.py, README.md in this directory).  No real pair of one capture
// exists here; this is the next best check.
//
//   NX_NPM_DIR=/work/npm-fixtures node test/crosscheck/json_to_explorer.mjs PROFILE.json OUT_DIR
//
// OUT_DIR gets <Table>.parquet files written by DuckDB (@duckdb/node-api,
// resolved from $NX_NPM_DIR as in test/fixtures/parquet/make.mjs).  Never
// point it into the repository when the input is a file you may not copy.
//
// The only source of table names, field names, types and units is the
// documented schema 7.4.0 (shared/reference/neuron-explorer-parquet.md,
// Appendix A); the field lists of the tables written are copied below in that
// notation.  Units: event times int64 ns; Summary times float32 seconds (the
// JSON summary is in seconds too); every field with unit [%] is a percent
// (the JSON writes fractions of 1, so they are multiplied by 100).
//
// How JSON fields map (S = same name in both; R = renamed, an inference from
// matching meaning, the doc has no JSON-to-Parquet mapping):
//   Metadata     S: ntff_version num_physical_cores vnc_enabled first/last_hw_timestamp
//                   first_ts last_ts dma_ddr_bandwidth hbm_ddr_bandwidth ticks_per_nanosec
//                   is_simulation; from summary[0] S: instance_type runtime_version
//                   collectives_version driver_version compiler_version; from profile_info
//                   S: profile_name; R: profiler_version -> explorer_version, profiler_build_time
//                   -> explorer_build_time (the doc: Metadata has no profiler_version, "the nearest
//                   is explorer_version").  R: pe_num_rows/pe_num_cols -> tensor_engine_num_rows/cols.
//                   profile_schema_version = "7.4.0" (the schema this follows).
//   Summary      S: the 101 columns from summary[0] (percents kept as fractions of 1 and
//                   -1 for a column the JSON lacks, as real exports write them); trace_count, event_count,
//                   dma_queue_count, neuroncore_cycle_count from model_info[0] when
//                   summary[0] lacks them.
//   Instruction  R: timestamp -> start_ts, duration -> duration_ns, end_ts = start + duration,
//                   subgroup -> engine, label -> timeline_track (the doc: engine plus "the UI
//                   track name e.g. TensorMatrix"), evt_wait_time -> evt_wait_time_ns,
//                   instruction_type -> tensor_instruction_type, activation_fn ->
//                   scalar_activation_fn.  S: opcode operands compiler_opcode
//                   compiler_operands id pc compiler_pc penguin_id raw_penguin_id bir_id
//                   raw_bir_id bir_instruction_name crc_in crc_out hlo_attrs hlo_name
//                   raw_hlo_id raw_framework_id layer and the *_bytes columns.
//                   pcore_idx from subgraph sg00/sg01 (LNC=2: two physical cores).
//   DmaPacket    rows with "aggregated":"no".  R: timestamp/duration as above, dma_engine ->
//                   engine_idx, dma_queue -> queue_idx, read_size/write_size/transfer_size
//                   -> read_bytes/write_bytes/transfer_bytes, transfer_rate -> throughput,
//                   queue_name = the name part of "subgroup" ("qSyncSpillReload0-Q1-E0" ->
//                   "qSyncSpillReload0"; "Q0-E0" has none -> null).  S: id packet_idx
//                   packet_aggregation_id queue_type variable crc.
//   DmaPacketAggregated  rows with "aggregated":"yes" (the doc's transfer table; the JSON
//                   marks them in the same array).  Same renames; block_id, op, semaphore_id S;
//                   source/dest as the JSON's nested lists flattened to text.  Only the 18 of its
//                   37 documented columns the JSON can fill are written (the rest are shapes and
//                   partitions the JSON row does not carry).
//   ActiveTime   S (all five fields).   SemaphoreUpdate, PendingDma, Warning: S.
//   DmaUsage     from dma_throughput. R: transfer_rate -> current_throughput; S:
//                   timestamp total_transfer_bytes.
//   HbmUsage     from dma_throughput. R: hbm_transfer_rate -> current_throughput,
//                   hbm_total_transfer_bytes -> total_transfer_bytes.
//   SbufUsage / PsumUsage  from instruction_usage by "type" (sb / psum). R: usage_avg ->
//                   avg_util_percent, partition_N_usage -> partition_N_util_percent (x100).
//   DmaQueuesInfo from dma_queues_info. R: q_name q_type q_idx q_eng_idx q_axi_port
//                   q_dram_channel -> name type idx engine_idx axi_port dram_channel; pcore 0.
//   NeffHeader   S (strings of digits to int64). R: number_of_neuroncores_per_lnc ->
//                   pcore_count_per_lnc, number_of_logical_neuroncores -> logical_neuroncore_count.
//   TensorInfo   from neff_node, S: variable_name type format shape node.
//   HbmUsageSummaryByType from nc_mem_usage. R: nd nc usage_type amount_bytes ->
//                   neuron_device_idx neuroncore_idx usage_type usage_bytes.
//   Throttle     from ham (same fields k n duration timestamp; type written as text).
// Left out, the doc does not say where they go: layer_summary, summary_groups,
// summary_group_order, terminology, model_info's own row, profile_info's other fields,
// metadata's pe_clock_freq/pe_clock_others/num_subgraphs/is_ext/data_version/
// total_point_count, instruction fields predecessors/elements/trigger/
// is_psum_read_sbuf_write/fully_qualified_subgraph, DMA fields source/dest (packets),
// is_cc_dma, duplicate, source_*/dest_* shapes, summary throttle_* and nc_idx/nd_idx.
// Limits of the transcode: Summary float fields are rounded to float32 as the doc's
// type says; integers above 2^63-1 (unsigned 64-bit ids) are written as their
// two's-complement int64 (none of nx's answers read them).
import fs from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

const NPM_DIR = path.resolve(process.env.NX_NPM_DIR || '/work/npm-fixtures');
const req = createRequire(path.join(NPM_DIR, 'package.json'));
const duckdb = await import(pathToFileURL(req.resolve('@duckdb/node-api')).href);

const [input, outDir] = process.argv.slice(2);
if (!input || !outDir) {
  console.error('usage: json_to_explorer.mjs PROFILE.json OUT_DIR');
  process.exit(2);
}

// ---------------------------------------------------------------- schema 7.4.0 (Appendix A)
const SCHEMA = {
  Metadata: 'profile_schema_version:str!, ntff_version:i32!, num_physical_cores:i32!, vnc_enabled:bool!, first_hw_timestamp:i64[ns]!, last_hw_timestamp:i64[ns]!, first_ts:str!, last_ts:str!, dma_ddr_bandwidth:f32[B/s]!, num_dma_engines_per_neuroncore:i32!, hbm_ddr_bandwidth:f32[B/s]!, tensor_engine_num_rows:i64!, tensor_engine_num_cols:i64!, tensor_engine_clock_freq:f32[GHz]!, vector_engine_clock_freq:f32[GHz]!, vector_engine_num_channels:i64!, scalar_engine_clock_freq:f32[GHz]!, scalar_engine_num_channels:i64!, gpsimd_engine_clock_freq:f32[GHz]!, gpsimd_engine_num_channels:i64!, neuroncore_clock_freq:f32[GHz]!, ticks_per_nanosec:i64!, instance_type:str, runtime_version:str, collectives_version:str, driver_version:str, explorer_version:str, compiler_version:str, neuroncore_idx:i64, neuron_device_idx:i64, ultraserver_id:i64, ultraserver_type:str, ultraserver_size:i32, ultraserver_instance_index:i32, s3_bucket_path:str, profile_name:str, explorer_build_time:str, is_simulation:bool',
  Summary: 'total_time:f32[s], neuroncore_cycle_count:i64[cycles], model_flops:i64[flops], hardware_flops:i64[flops], transpose_flops:i64[flops], adjusted_hardware_flops:i64[flops], adjusted_transpose_flops:i64[flops], mm_arithmetic_intensity:f32, peak_flops_bandwidth_ratio:f32, trace_count:i64, event_count:i64, total_row_count:i64, dma_active_cycles:i64[cycles], dma_active_time:f32[s], dma_active_time_percent:f32[%], static_dma_active_time:f32[s], dynamic_dma_active_time_percent:f32[%], static_dma_active_time_percent:f32[%], dma_transfer_average_bytes:f32[B], dma_packet_time:f32[s], dma_transfer_time:f32[s], dma_transfer_count:i64, dma_transfer_total_bytes:i64[B], dma_queue_count:i64, inputs_and_weights_size_bytes:i64[B], inputs_outputs_weights_size_bytes:i64[B], weight_size_bytes:i64[B], static_dma_packet_count:i64, static_dma_size:i64[B], dynamic_dma_packet_percent:f32[%], static_dma_packet_percent:f32[%], dynamic_dma_size_percent:f32[%], static_dma_size_percent:f32[%], mbu_estimated_percent:f32[%], mbu_min_read_util_percent:f32[%], hbm_write_bytes:i64[B], hbm_read_bytes:i64[B], sbuf_write_bytes:i64[B], sbuf_read_bytes:i64[B], spill_save_bytes:i64[B], spill_reload_bytes:i64[B], psum_write_bytes:i64[B], psum_read_bytes:i64[B], psum_read_sbuf_write_count:i64, psum_read_sbuf_write_bytes:i64[B], input_queue_bytes:i64[B], output_queue_bytes:i64[B], weight_queue_bytes:i64[B], software_dynamic_dma_active_time:f32[s], software_dynamic_dma_active_time_percent:f32[%], software_dynamic_dma_packet_count:i64, software_dynamic_dma_size:i64[B], software_dynamic_dma_packet_percent:f32[%], software_dynamic_dma_size_percent:f32[%], hardware_dynamic_dma_active_time:f32[s], hardware_dynamic_dma_active_time_percent:f32[%], hardware_dynamic_dma_packet_count:i64, hardware_dynamic_dma_size:i64[B], hardware_dynamic_dma_packet_percent:f32[%], hardware_dynamic_dma_size_percent:f32[%], tensor_engine_instruction_time:f32[s], tensor_engine_active_time:f32[s], tensor_engine_active_time_percent:f32[%], tensor_engine_instruction_count:i64, matmul_instruction_count:i64, mfu_estimated_percent:f32[%], mfu_max_achievable_estimated_percent:f32[%], mfu_hlo_estimated_percent:f32[%], mfu_hlo_max_achievable_estimated_percent:f32[%], mfu_inst_estimated_percent:f32[%], mfu_inst_max_achievable_estimated_percent:f32[%], hfu_estimated_percent:f32[%], vector_engine_instruction_time:f32[s], vector_engine_active_time:f32[s], vector_engine_active_time_percent:f32[%], vector_engine_instruction_count:i64, scalar_engine_instruction_time:f32[s], scalar_engine_active_time:f32[s], scalar_engine_active_time_percent:f32[%], scalar_engine_instruction_count:i64, activate_instruction_time:f32[s], activate_instruction_count:i64, sync_engine_instruction_time:f32[s], sync_engine_active_time:f32[s], sync_engine_active_time_percent:f32[%], sync_engine_instruction_count:i64, gpsimd_engine_instruction_time:f32[s], gpsimd_engine_active_time:f32[s], gpsimd_engine_active_time_percent:f32[%], gpsimd_engine_instruction_count:i64, cc_op_time:f32[s], cc_op_active_time:f32[s], cc_op_active_time_percent:f32[%], cc_op_count:i64, cc_cores_instruction_time:f32[s], cc_cores_instruction_active_time:f32[s], cc_cores_instruction_active_time_percent:f32[%], cc_cores_instruction_count:i64, total_exec_time:f32[s], total_active_time:f32[s], total_active_time_percent:f32[%]',
  Instruction: 'start_ts:i64[ns]!, end_ts:i64[ns]!, duration_ns:i64[ns]!, engine:str!, timeline_track:str, pcore_idx:i64, opcode:str!, operands:str!, compiler_opcode:str, compiler_operands:str, id:i64!, pc:i64!, compiler_pc:i64, penguin_id:str, raw_penguin_id:i64, bir_id:str!, raw_bir_id:i64, bir_instruction_name:str, kernel_instruction_name:str, crc_in:i64, crc_out:i64, evt_wait_time_ns:i64[ns], hlo_attrs:str, hlo_name:str, raw_hlo_id:i64, raw_framework_id:i64, layer:str, stack_frame_ids:str, nki_source_location:str, bir_debug_info_source_location:str, dma_trigger_start_ts:i64, dma_trigger_end_ts:i64, dma_wait_time_ns:i64[ns], instruction_chain:str, hbm_read_bytes:i64, hbm_write_bytes:i64, sbuf_read_bytes:i64, sbuf_write_bytes:i64, spill_save_bytes:i64, spill_reload_bytes:i64, psum_read_bytes:i64, psum_write_bytes:i64, psum_read_sbuf_write_bytes:i64, input_queue_bytes:i64, output_queue_bytes:i64, weight_queue_bytes:i64, performance_mode:str enum PerformanceMode, tensor_instruction_type:str, tensor_elements:i64, raw_flops:i64, adjusted_flops:i64, tensor_elements_transpose:i64, flops_transpose:i64, adjusted_flops_transpose:i64, scalar_activation_fn:str',
  DmaPacket: 'start_ts:i64[ns]!, end_ts:i64[ns]!, duration_ns:i64[ns]!, pcore_idx:i64, id:i64!, packet_idx:i32!, packet_aggregation_id:i64!, engine_idx:i64, read_bytes:i64[B]!, write_bytes:i64[B]!, transfer_bytes:i64[B]!, throughput:f32[B/s]!, queue_type:str enum DmaQueueType!, variable:str, queue_name:str, queue_idx:i64, crc:i64!',
  DmaPacketAggregated: 'start_ts:i64[ns]!, end_ts:i64[ns]!, duration_ns:i64[ns]!, id:i64!, pcore_idx:i64, block_id:i32!, queue_idx:i64!, queue_name:str!, queue_type:str enum DmaQueueType, op:str!, variable:str!, read_bytes:i64[B]!, write_bytes:i64[B]!, transfer_bytes:i64[B]!, throughput:f32[B/s]!, source:str!, dest:str!, semaphore_id:str!',
  ActiveTime: 'start_ts:i64[ns]!, end_ts:i64[ns]!, engine:str!, pcore_idx:i64!, duration_ns:i64[ns]!',
  SemaphoreUpdate: 'timestamp:i64[ns]!, id:str!, value:i32!, update_source:str, double_set_or_clear:bool, update_mode:i32, update_operation_type:str, update_trigger_timing:str, pcore_idx:i64',
  PendingDma: 'timestamp:i64[ns]!, value:i32!, pcore_idx:i64',
  DmaUsage: 'timestamp:i64[ns]!, current_throughput:f32[B/s]!, total_transfer_bytes:i64[B]!, pcore_idx:i64',
  HbmUsage: 'timestamp:i64[ns]!, current_throughput:f32[B/s]!, total_transfer_bytes:i64[B]!, pcore_idx:i64',
  SbufUsage: 'timestamp:i64[ns]!, avg_util_percent:f32[%], partition_0_util_percent:f32[%], partition_32_util_percent:f32[%], partition_64_util_percent:f32[%], partition_96_util_percent:f32[%], pcore_idx:i64',
  PsumUsage: 'timestamp:i64[ns]!, avg_util_percent:f32[%], bank_0_util_percent:f32[%], bank_1_util_percent:f32[%], bank_2_util_percent:f32[%], bank_3_util_percent:f32[%], bank_4_util_percent:f32[%], bank_5_util_percent:f32[%], bank_6_util_percent:f32[%], bank_7_util_percent:f32[%], pcore_idx:i64',
  DmaQueuesInfo: 'name:str!, type:str!, pcore_idx:i64!, idx:i64!, engine_idx:i64!, axi_port:i64!, dram_channel:i64!',
  NeffHeader: 'network_name:str, uuid:str, hash:str, enabled_features:str, header_size:i64[B], data_size:i64[B], major_version:i64, minor_version:i64, package_version:str, build_version:str, cc_participant_count:i64, neuroncore_count:i64, logical_neuroncore_count:i64, pcore_count_per_lnc:i64',
  TensorInfo: 'variable_name:str, type:str, format:str, shape:str, size:i64[B], node:i64, pcore_idx:i64, load_to_sbuf_avg_size_bytes:i64, load_to_sbuf_total_size_bytes:i64, load_to_sbuf_dma_count:i64, load_to_sbuf_repeat_factor:f32',
  HbmUsageSummaryByType: 'neuron_device_idx:i64!, neuroncore_idx:i64!, usage_type:str!, usage_bytes:i64[B]!',
  Throttle: 'duration:i64[ns]!, k:i32!, n:i32!, timestamp:i64[ns]!, type:str!, pcore_idx:i64',
  Warning: 'message:str!, category:str!',
};
const DUCK_TYPE = { i64: 'BIGINT', i32: 'INTEGER', f32: 'FLOAT', f64: 'DOUBLE', str: 'VARCHAR', bool: 'BOOLEAN' };
function fields(table) {
  return SCHEMA[table].split(', ').map((f) => {
    const m = /^(\w+):(\w+)(?:\[([^\]]+)\])?/.exec(f);
    return { name: m[1], type: m[2], unit: m[3] || '', required: f.endsWith('!') };
  });
}

// ---------------------------------------------------------------- the JSON, big integers intact
// Ids are unsigned 64-bit: JSON.parse would round them, so integer literals of
// 16+ digits are read as BigInt.
const BIG = '@@nx-bigint:';
const text = fs.readFileSync(input, 'utf8')
  .replace(/([:[,]\s*)(-?\d{16,})(?=\s*[,\]}])/g, (_, pre, digits) => `${pre}"${BIG}${digits}"`);
const J = JSON.parse(text, (_, v) => (typeof v === 'string' && v.startsWith(BIG) ? BigInt(v.slice(BIG.length)) : v));
const first = (k) => (Array.isArray(J[k]) && J[k].length ? J[k][0] : {});
const arr = (k) => (Array.isArray(J[k]) ? J[k] : []);

// Value of one cell, by the doc's type and unit; `fraction` marks JSON
// percents (fractions of 1) going into a [%] field of a table whose percents
// are 0..100.  Summary's are not: real exports write its *_percent as
// fractions of 1, as the JSON does (neuron-explorer-parquet.md section 12).
function cell(f, v, fraction = true) {
  if (v === undefined || v === null || v === '') return f.type === 'str' && v === '' ? '' : null;
  switch (f.type) {
    case 'i64': case 'i32': {
      if (typeof v === 'boolean') return v ? 1n : 0n;
      if (typeof v === 'string' && !/^-?\d+$/.test(v.trim())) return null;
      return BigInt.asIntN(64, BigInt(typeof v === 'number' ? Math.round(v) : v));
    }
    case 'f32': case 'f64': {
      const x = Number(v);
      if (!Number.isFinite(x)) return null;
      return f.unit === '%' && fraction ? x * 100 : x;
    }
    case 'bool': return v === true || v === 'true' || v === 'yes';
    default: return typeof v === 'object' ? JSON.stringify(v, (_, y) => (typeof y === 'bigint' ? y.toString() : y)) : String(v);
  }
}

// ---------------------------------------------------------------- rows per table
const tables = {};
const add = (table, row) => (tables[table] ||= []).push(row);
const meta = first('metadata');
const sum = first('summary');
const model = first('model_info');
const pinfo = first('profile_info');

add('Metadata', {
  ...meta, profile_schema_version: '7.4.0',
  tensor_engine_num_rows: meta.pe_num_rows, tensor_engine_num_cols: meta.pe_num_cols,
  tensor_engine_clock_freq: meta.pe_clock_freq, neuroncore_clock_freq: meta.pe_clock_others,
  instance_type: sum.instance_type, runtime_version: sum.runtime_version, collectives_version: sum.collectives_version,
  driver_version: sum.driver_version, compiler_version: sum.compiler_version, profile_name: pinfo.profile_name,
  explorer_version: pinfo.profiler_version, explorer_build_time: pinfo.profiler_build_time,
});
// Summary as real exports write it: fractions, and -1 for what the profile does not have.
if (J.summary) add('Summary', Object.fromEntries(fields('Summary').map((f) => [f.name, sum[f.name] ?? model[f.name] ?? -1])));
// The physical core of an LNC=2 row: its subgraph, sg00 / sg01.
const pcoreOf = (r) => { const m = /^\/?sg(\d+)$/.exec(r.subgraph || ''); return m ? Number(m[1]) : 0; };

for (const r of arr('instruction')) {
  add('Instruction', {
    ...r, start_ts: r.timestamp, duration_ns: r.duration, end_ts: BigInt(r.timestamp) + BigInt(r.duration),
    engine: r.subgroup, timeline_track: r.label, pcore_idx: pcoreOf(r), evt_wait_time_ns: r.evt_wait_time,
    tensor_instruction_type: r.instruction_type, scalar_activation_fn: r.activation_fn,
  });
}
const queueName = (subgroup) => { const m = /^(.+)-Q\d+-E\d+$/.exec(subgroup || ''); return m ? m[1] : (/^Q\d+-E\d+$/.test(subgroup || '') ? null : subgroup); };
for (const r of arr('dma')) {
  const common = {
    ...r, start_ts: r.timestamp, duration_ns: r.duration, end_ts: BigInt(r.timestamp) + BigInt(r.duration),
    pcore_idx: pcoreOf(r), engine_idx: r.dma_engine, queue_idx: r.dma_queue, read_bytes: r.read_size, write_bytes: r.write_size,
    transfer_bytes: r.transfer_size, throughput: r.transfer_rate, queue_name: queueName(r.subgroup),
  };
  add(r.aggregated === 'yes' ? 'DmaPacketAggregated' : 'DmaPacket', common);
}
for (const r of arr('active_time')) add('ActiveTime', r);
for (const r of arr('semaphore_update')) add('SemaphoreUpdate', { ...r, pcore_idx: 0 });
for (const r of arr('pending_dma')) add('PendingDma', { ...r, pcore_idx: 0 });
for (const r of arr('dma_throughput')) {
  add('DmaUsage', { timestamp: r.timestamp, current_throughput: r.transfer_rate, total_transfer_bytes: r.total_transfer_bytes, pcore_idx: 0 });
  add('HbmUsage', { timestamp: r.timestamp, current_throughput: r.hbm_transfer_rate, total_transfer_bytes: r.hbm_total_transfer_bytes, pcore_idx: 0 });
}
for (const r of arr('instruction_usage')) {
  const row = { timestamp: r.timestamp, avg_util_percent: r.usage_avg, pcore_idx: 0 };
  for (const [k, v] of Object.entries(r)) {
    const m = /^(partition|bank)_(\d+)_usage$/.exec(k);
    if (m) row[`${m[1]}_${m[2]}_util_percent`] = v;
  }
  if (r.type === 'sb') add('SbufUsage', row);
  else if (r.type === 'psum') add('PsumUsage', row);
}
for (const r of arr('dma_queues_info'))
  add('DmaQueuesInfo', { name: r.q_name, type: r.q_type, pcore_idx: 0, idx: r.q_idx, engine_idx: r.q_eng_idx, axi_port: r.q_axi_port, dram_channel: r.q_dram_channel });
for (const r of arr('neff_header'))
  add('NeffHeader', { ...r, pcore_count_per_lnc: r.number_of_neuroncores_per_lnc, logical_neuroncore_count: r.number_of_logical_neuroncores });
for (const r of arr('neff_node')) add('TensorInfo', r);
for (const r of arr('nc_mem_usage'))
  add('HbmUsageSummaryByType', { neuron_device_idx: r.nd, neuroncore_idx: r.nc, usage_type: r.usage_type, usage_bytes: r.amount_bytes });
for (const r of arr('ham')) add('Throttle', { ...r, pcore_idx: 0 });
for (const r of arr('warnings')) add('Warning', r);

// ---------------------------------------------------------------- write with DuckDB
const inst = await duckdb.DuckDBInstance.create(':memory:', { threads: '1' });
const con = await inst.connect();
await con.run('SET preserve_insertion_order = true');
const q = (s) => `'${s.replace(/'/g, "''")}'`;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'json_to_explorer-'));
fs.mkdirSync(outDir, { recursive: true });
const counts = {};
for (const [table, rows] of Object.entries(tables)) {
  const fs_ = fields(table);
  const nd = path.join(tmp, `${table}.jsonl`);
  const lines = rows.map((r) => {
    const o = Object.fromEntries(fs_.map((f) => [f.name, cell(f, r[f.name], table !== 'Summary')]));
    return JSON.stringify(o, (_, v) => (typeof v === 'bigint' ? `${BIG}${v}` : v)).replace(/"@@nx-bigint:(-?\d+)"/g, '$1');
  });
  fs.writeFileSync(nd, lines.join('\n') + '\n');
  const cols = fs_.map((f) => `${q(f.name)}: ${q(DUCK_TYPE[f.type])}`).join(', ');
  await con.run(`COPY (SELECT * FROM read_json(${q(nd)}, format = 'newline_delimited', columns = {${cols}}))
                 TO ${q(path.join(outDir, `${table}.parquet`))} (FORMAT parquet, COMPRESSION snappy)`);
  counts[table] = rows.length;
}
fs.rmSync(tmp, { recursive: true, force: true });
console.log(JSON.stringify({ input: path.basename(input), out: outDir, rows: counts }));
