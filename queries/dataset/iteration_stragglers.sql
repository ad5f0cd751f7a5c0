-- iteration_stragglers: a session's iterations across ranks (the k-th execution of a NEFF on each rank is one iteration of the job): per NEFF and iteration, how many ranks ran it, their mean and longest time, the slowest rank, and what grew most in the slowest rank's execution against the iteration's mean (compute, collective, dma_exposed or idle; none when nothing grew), the iterations furthest above their mean first
-- columns: neff, iteration, ranks, mean_ns, max_ns, slowest_rank, max_over_mean, grew, grew_ns
-- params: none
WITH ordered AS (
    SELECT rank, neff, dur_ns, compute_ns, collective_ns, dma_exposed_ns, idle_ns,
           ROW_NUMBER() OVER (PARTITION BY profile, neff ORDER BY execution_index) - 1 AS iteration
    FROM executions
    WHERE rank IS NOT NULL
), ranked AS (
    SELECT rank, neff, dur_ns, iteration, compute_ns, collective_ns, dma_exposed_ns, idle_ns,
           ROW_NUMBER() OVER (PARTITION BY neff, iteration ORDER BY dur_ns DESC, rank) AS place,
           COUNT(*) OVER (PARTITION BY neff, iteration) AS ranks,
           AVG(dur_ns) OVER (PARTITION BY neff, iteration) AS mean_ns,
           AVG(compute_ns) OVER (PARTITION BY neff, iteration) AS mean_compute,
           AVG(collective_ns) OVER (PARTITION BY neff, iteration) AS mean_collective,
           AVG(dma_exposed_ns) OVER (PARTITION BY neff, iteration) AS mean_dma_exposed,
           AVG(idle_ns) OVER (PARTITION BY neff, iteration) AS mean_idle
    FROM ordered
), slowest AS (
    SELECT * FROM ranked WHERE place = 1 AND ranks >= 2
), growth AS (
    SELECT neff, iteration, 'compute' AS part, compute_ns - mean_compute AS grew_ns FROM slowest
    UNION ALL SELECT neff, iteration, 'collective', collective_ns - mean_collective FROM slowest
    UNION ALL SELECT neff, iteration, 'dma_exposed', dma_exposed_ns - mean_dma_exposed FROM slowest
    UNION ALL SELECT neff, iteration, 'idle', idle_ns - mean_idle FROM slowest
), largest AS (
    SELECT neff, iteration, part, grew_ns,
           ROW_NUMBER() OVER (PARTITION BY neff, iteration ORDER BY grew_ns DESC, part) AS k
    FROM growth
    WHERE grew_ns > 0
)
SELECT s.neff, s.iteration, s.ranks, ROUND(s.mean_ns, 1) AS mean_ns, s.dur_ns AS max_ns, s.rank AS slowest_rank,
       ROUND(s.dur_ns / s.mean_ns, 3) AS max_over_mean, g.part AS grew, ROUND(g.grew_ns, 1) AS grew_ns
FROM slowest s
LEFT JOIN largest g ON g.neff IS NOT DISTINCT FROM s.neff AND g.iteration = s.iteration AND g.k = 1
ORDER BY max_over_mean DESC, s.neff NULLS LAST, s.iteration;
