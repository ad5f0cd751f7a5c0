-- critical_path: the longest dependency chain of a profile (Explorer's Flow rows; critical_path()), one row per step
-- columns: profile, step, node_table, node_id, name, engine_queue, start_ns, dur_ns, gap_to_next_ns, cumulative_ns
-- params: profile (name or id; default every profile)
SELECT p.name AS profile, c.step, c.node_table, c.node_id, c.name, c.engine_queue, c.start_ns, c.dur_ns,
       c.gap_to_next_ns, c.cumulative_ns
FROM profile p, critical_path(p.id) c
WHERE :profile IS NULL OR p.name = :profile OR p.uid = :profile
ORDER BY p.id, c.step;
