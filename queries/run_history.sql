-- run_history: latency of each workload across recorded runs (nx-run history), oldest first
-- columns: study, name, backend, target, started_at, median_us, p95_us, tflops, change_percent
-- params: name (workload name; default all), study (default all)
SELECT study, name, backend, target, started_at, latency_median_us AS median_us, latency_p95_us AS p95_us,
       ROUND(tflops, 3) AS tflops,
       ROUND(100.0 * (latency_median_us - LAG(latency_median_us) OVER w) / LAG(latency_median_us) OVER w, 2)
           AS change_percent
FROM run
WHERE (:name IS NULL OR name = :name) AND (:study IS NULL OR study = :study)
WINDOW w AS (PARTITION BY study, name, backend, target ORDER BY started_at, id)
ORDER BY study, name, backend, target, started_at, id;
