-- rank_executions: per rank and NEFF, the executions of a session (the same execution index on every rank is one iteration of the job): how many, their shortest, mean and longest time, and the slowest one's index
-- columns: rank, profile, neff, executions, min_ns, mean_ns, max_ns, slowest
-- params: none
SELECT x.rank, x.profile, x.neff, COUNT(*) AS executions, MIN(x.dur_ns) AS min_ns,
       ROUND(AVG(x.dur_ns), 1) AS mean_ns, MAX(x.dur_ns) AS max_ns,
       (SELECT y.execution_index FROM executions y
         WHERE y.profile = x.profile AND y.rank IS NOT DISTINCT FROM x.rank AND y.neff IS NOT DISTINCT FROM x.neff
         ORDER BY y.dur_ns DESC, y.execution_index LIMIT 1) AS slowest
FROM executions x
GROUP BY x.rank, x.profile, x.neff
ORDER BY x.rank NULLS LAST, x.profile, x.neff;
