-- rank_breakdown: per rank, where the time went: compute, collectives, the two at once, DMA that neither hides, idle
-- columns: rank, profile, span_ns, compute_ns, collective_ns, overlap_ns, dma_exposed_ns, idle_ns, compute_percent, collective_percent, overlap_percent
-- params: none
SELECT rank, profile, span_ns, compute_ns, collective_ns, overlap_ns, dma_exposed_ns, idle_ns,
       ROUND(100.0 * compute_ns / NULLIF(span_ns, 0), 2) AS compute_percent,
       ROUND(100.0 * collective_ns / NULLIF(span_ns, 0), 2) AS collective_percent,
       ROUND(100.0 * overlap_ns / NULLIF(collective_ns, 0), 2) AS overlap_percent
FROM breakdown
ORDER BY rank NULLS LAST, profile;
