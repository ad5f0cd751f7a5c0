-- executions: each profile's executions by NEFF (a session holds many): how many, their shortest, mean and longest time, and the slowest one's index; the rows themselves are the execution table's
-- columns: profile, neff, executions, min_ns, mean_ns, max_ns, slowest, max_over_min
-- params: none
SELECT p.name AS profile, x.neff, COUNT(*) AS executions, MIN(x.dur_ns) AS min_ns,
       ROUND(AVG(x.dur_ns), 1) AS mean_ns, MAX(x.dur_ns) AS max_ns,
       (SELECT y.execution_index FROM execution y
         WHERE y.profile_id = x.profile_id AND y.neff IS x.neff
         ORDER BY y.dur_ns DESC, y.execution_index LIMIT 1) AS slowest,
       ROUND(1.0 * MAX(x.dur_ns) / NULLIF(MIN(x.dur_ns), 0), 3) AS max_over_min
FROM execution x JOIN profile p ON p.id = x.profile_id
GROUP BY x.profile_id, x.neff
ORDER BY p.name, executions DESC, x.neff;
