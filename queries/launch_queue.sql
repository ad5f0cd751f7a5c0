-- launch_queue: HTA's queue length per device stream: launches waiting for their work to start, as its changes' count, mean, standard deviation, min, quartiles and max, the time at its longest, and the time at CUDA's limit of 1024 (blocked on a full queue) and its share of the device window
-- columns: rank, profile, stream, count, mean, std, min, p25, p50, p75, max, at_max_ns, full_ns, full_percent
-- params: none
SELECT p.rank, p.name AS profile, json_extract(x.value, '$.stream') AS stream,
       json_extract(x.value, '$.queue_points') AS count, json_extract(x.value, '$.queue_mean') AS mean,
       json_extract(x.value, '$.queue_std') AS std, json_extract(x.value, '$.queue_min') AS min,
       json_extract(x.value, '$.queue_p25') AS p25, json_extract(x.value, '$.queue_p50') AS p50,
       json_extract(x.value, '$.queue_p75') AS p75, json_extract(x.value, '$.queue_max') AS max,
       json_extract(x.value, '$.queue_at_max_ns') AS at_max_ns, json_extract(x.value, '$.queue_full_ns') AS full_ns,
       ROUND(100.0 * json_extract(x.value, '$.queue_full_ns') /
             NULLIF(json_extract(p.record, '$.device.times.span_ns'), 0), 4) AS full_percent
FROM profile p, json_each(p.record, '$.device.streams') x
WHERE json_extract(x.value, '$.queue_points') > 0
ORDER BY p.rank NULLS LAST, p.name, stream;
