-- rank_collective_engines: per rank and the engine that triggered them: collective operations, their time, and the profiler's delay from trigger to start (Explorer's CcOp trigger_engine and cc_trigger_start_delay)
-- columns: rank, profile, engine, ops, collective_ns, trigger_delay_ns, max_trigger_delay_ns
-- params: none
-- A source that does not say which engine triggered an operation (neuron-profile
-- JSON, PyTorch traces) leaves engine and the delays NULL: its operations are
-- one row per profile.
SELECT rank, profile, engine, COUNT(*) AS ops, SUM(dur_ns) AS collective_ns,
       SUM(trigger_delay_ns) AS trigger_delay_ns, MAX(trigger_delay_ns) AS max_trigger_delay_ns
FROM collectives
GROUP BY rank, profile, engine
ORDER BY rank NULLS LAST, profile, engine NULLS LAST;
