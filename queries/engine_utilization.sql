-- engine_utilization: per engine: instructions, busy time (union of intervals), active %, mean duration
-- of the engine's work (its instructions but the semaphore waits, which last as long as it is idle)
-- columns: profile, engine, instructions, busy_ns, active_percent, mean_dur_ns
-- params: profile (name or id; default every profile)
WITH p AS (
    SELECT id, name,
           COALESCE((SELECT value * 1e9 FROM metric WHERE profile_id = profile.id AND name = 'total_time'),
                    end_ns - start_ns) AS total_ns
    FROM profile
    WHERE :profile IS NULL OR name = :profile OR uid = :profile
)
SELECT p.name AS profile, s.engine, s.instructions, s.busy_ns,
       ROUND(100.0 * s.busy_ns / NULLIF(p.total_ns, 0), 2) AS active_percent,
       ROUND(1.0 * s.work_sum_ns / NULLIF(s.work_instructions, 0), 1) AS mean_dur_ns
FROM p, engine_summary(p.id) s
ORDER BY p.id, s.busy_ns DESC;
