-- dma_activity: per DMA queue: transfers, bytes, busy time (union), average size and throughput
-- columns: profile, queue, transfers, bytes, avg_bytes, busy_ns, gb_per_s
-- params: profile (name or id; default every profile)
WITH q AS (
    SELECT e.profile_id, e.track_id, COUNT(*) AS transfers, SUM(e.bytes) AS bytes
    FROM event e JOIN profile p ON p.id = e.profile_id
    WHERE e.type = 'dma' AND (:profile IS NULL OR p.name = :profile OR p.uid = :profile)
    GROUP BY e.profile_id, e.track_id
),
spans AS (
    -- Busy time per queue: merged intervals of that queue's transfers.
    SELECT track_id, lo, hi,
           CASE WHEN lo <= MAX(hi) OVER (PARTITION BY track_id ORDER BY lo, hi
                                         ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) THEN 0 ELSE 1 END AS starts
    FROM (SELECT e.track_id, e.ts AS lo, e.ts + e.dur AS hi FROM event e
          WHERE e.type = 'dma' AND e.dur > 0 AND e.track_id IN (SELECT track_id FROM q))
),
islands AS (
    SELECT track_id, lo, hi, SUM(starts) OVER (PARTITION BY track_id ORDER BY lo, hi ROWS UNBOUNDED PRECEDING) AS island
    FROM spans
),
busy_q AS (
    SELECT track_id, SUM(hi - lo) AS busy_ns
    FROM (SELECT track_id, MIN(lo) AS lo, MAX(hi) AS hi FROM islands GROUP BY track_id, island)
    GROUP BY track_id
)
SELECT p.name AS profile, t.name AS queue, q.transfers, q.bytes,
       ROUND(1.0 * q.bytes / q.transfers, 1) AS avg_bytes, COALESCE(b.busy_ns, 0) AS busy_ns,
       ROUND(1.0 * q.bytes / NULLIF(b.busy_ns, 0), 3) AS gb_per_s
FROM q JOIN profile p ON p.id = q.profile_id JOIN track t ON t.id = q.track_id
LEFT JOIN busy_q b ON b.track_id = q.track_id
ORDER BY p.id, q.bytes DESC;
