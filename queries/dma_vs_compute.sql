-- dma_vs_compute: how much DMA time is hidden behind compute, and how much is not
-- columns: profile, dma_ns, compute_ns, overlap_ns, dma_only_ns, compute_only_ns, idle_ns, dma_hidden_percent
-- params: profile (name or id; default every profile)
WITH p AS (
    SELECT id, name FROM profile WHERE :profile IS NULL OR name = :profile OR uid = :profile
),
t AS (
    SELECT p.id AS pid,
           SUM(CASE WHEN m.dma = 1 THEN m.dur_ns ELSE 0 END) AS dma_ns,
           SUM(CASE WHEN m.compute = 1 THEN m.dur_ns ELSE 0 END) AS compute_ns,
           SUM(CASE WHEN m.dma = 1 AND m.compute = 1 THEN m.dur_ns ELSE 0 END) AS overlap_ns,
           SUM(CASE WHEN m.mask = 0 THEN m.dur_ns ELSE 0 END) AS idle_ns
    FROM p, engine_masks(p.id) m
    GROUP BY p.id
)
SELECT p.name AS profile, t.dma_ns, t.compute_ns, t.overlap_ns, t.dma_ns - t.overlap_ns AS dma_only_ns,
       t.compute_ns - t.overlap_ns AS compute_only_ns, t.idle_ns,
       ROUND(100.0 * t.overlap_ns / NULLIF(t.dma_ns, 0), 2) AS dma_hidden_percent
FROM t JOIN p ON p.id = t.pid
ORDER BY p.id;
