-- device_steps: per profiler step of each profile with device streams, the step's device work (launched in the step) from its first start to its last end, and where that time went
-- columns: rank, profile, step, start_ns, window_ns, compute_ns, communication_ns, overlap_ns, exposed_ns, idle_ns, idle_percent, compute_percent
-- params: none
SELECT p.rank, p.name AS profile, json_extract(x.value, '$.step') AS step, json_extract(x.value, '$.start_ns') AS start_ns,
       json_extract(x.value, '$.span_ns') AS window_ns, json_extract(x.value, '$.computation_ns') AS compute_ns,
       json_extract(x.value, '$.communication_ns') AS communication_ns, json_extract(x.value, '$.overlap_ns') AS overlap_ns,
       json_extract(x.value, '$.exposed_ns') AS exposed_ns, json_extract(x.value, '$.idle_ns') AS idle_ns,
       ROUND(100.0 * json_extract(x.value, '$.idle_ns') / NULLIF(json_extract(x.value, '$.span_ns'), 0), 3) AS idle_percent,
       ROUND(100.0 * json_extract(x.value, '$.computation_ns') / NULLIF(json_extract(x.value, '$.span_ns'), 0), 3) AS compute_percent
FROM profile p, json_each(p.record, '$.device.steps') x
ORDER BY p.rank NULLS LAST, p.name, start_ns;
