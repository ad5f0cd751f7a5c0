-- region_summary: per region (layer, iteration; region_stats()): its time, engines, FLOPs and worst finding
-- columns: profile, region_id, kind, region, parent, start_ns, dur_ns, percent_of_profile, instructions, tensor_busy_ns, dma_busy_ns, tensor_active_percent, dma_active_percent, mfu_percent, findings, worst_rule, worst_severity
-- params: profile (name or id; default every profile), limit (regions per profile, longest first; default 50)
WITH p AS (
    SELECT id, name FROM profile
    WHERE :profile IS NULL OR name = :profile OR uid = :profile
),
r AS (
    SELECT p.id AS pid, p.name AS profile, s.*,
           ROW_NUMBER() OVER (PARTITION BY p.id ORDER BY s.dur_ns DESC, s.start_ns) AS rank
    FROM p, region_stats(p.id) s
)
SELECT profile, region_id, kind, name AS region, parent, start_ns, dur_ns, ROUND(percent_of_profile, 2) AS percent_of_profile,
       instructions, tensor_busy_ns, dma_busy_ns, ROUND(tensor_active_percent, 2) AS tensor_active_percent,
       ROUND(dma_active_percent, 2) AS dma_active_percent, ROUND(mfu_percent, 3) AS mfu_percent,
       findings, worst_rule, worst_severity
FROM r
WHERE rank <= COALESCE(:limit, 50)
ORDER BY pid, rank;
