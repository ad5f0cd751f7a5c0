-- profiles: every profile in the database with its headline metrics
-- columns: profile, id, format, backend, target, events, total_time_s, tensor_active_percent, mfu_percent, source
-- params: (none)
SELECT p.name AS profile, p.uid AS id, p.format, p.backend, p.target, p.event_count AS events,
       (SELECT value FROM metric WHERE profile_id = p.id AND name = 'total_time') AS total_time_s,
       (SELECT ROUND(value, 2) FROM metric WHERE profile_id = p.id AND name = 'tensor_engine_active_time_percent') AS tensor_active_percent,
       (SELECT ROUND(value, 2) FROM metric WHERE profile_id = p.id AND name = 'mfu_estimated_percent') AS mfu_percent,
       p.source
FROM profile p
ORDER BY p.id;
