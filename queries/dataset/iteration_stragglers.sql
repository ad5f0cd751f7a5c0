-- iteration_stragglers: a session's iterations across ranks (the k-th execution of a NEFF on each rank is one iteration of the job): per NEFF and iteration, how many ranks ran it, their mean and longest time and the slowest rank, the iterations furthest above their mean first
-- columns: neff, iteration, ranks, mean_ns, max_ns, slowest_rank, max_over_mean
-- params: none
WITH ordered AS (
    SELECT rank, neff, dur_ns,
           ROW_NUMBER() OVER (PARTITION BY profile, neff ORDER BY execution_index) - 1 AS iteration
    FROM executions
    WHERE rank IS NOT NULL
), ranked AS (
    SELECT rank, neff, dur_ns, iteration,
           ROW_NUMBER() OVER (PARTITION BY neff, iteration ORDER BY dur_ns DESC, rank) AS place,
           COUNT(*) OVER (PARTITION BY neff, iteration) AS ranks,
           AVG(dur_ns) OVER (PARTITION BY neff, iteration) AS mean_ns
    FROM ordered
)
SELECT neff, iteration, ranks, ROUND(mean_ns, 1) AS mean_ns, dur_ns AS max_ns, rank AS slowest_rank,
       ROUND(dur_ns / mean_ns, 3) AS max_over_mean
FROM ranked
WHERE place = 1 AND ranks >= 2
ORDER BY max_over_mean DESC, neff NULLS LAST, iteration;
