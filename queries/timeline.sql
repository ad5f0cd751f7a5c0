-- timeline: utilisation of each engine in N equal time buckets across the profile
-- columns: profile, engine, bucket, start_ns, end_ns, busy_ns, active_percent
-- params: profile (name or id; default every profile), buckets (default 50)
WITH p AS (
    SELECT id, name FROM profile WHERE :profile IS NULL OR name = :profile OR uid = :profile
)
SELECT p.name AS profile, t.engine, t.bucket, t.start_ns, t.end_ns, t.busy_ns,
       ROUND(100.0 * t.busy_ns / NULLIF(t.end_ns - t.start_ns, 0), 2) AS active_percent
FROM p, engine_timeline(p.id, COALESCE(:buckets, 50)) t
ORDER BY p.id, t.engine, t.bucket;
