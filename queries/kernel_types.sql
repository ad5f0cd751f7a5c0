-- kernel_types: HTA's kernel type breakdown of each profile with device streams: the time each set of computation, communication and memory kernels runs, alone or together, and its share
-- columns: rank, profile, kernel_type, time_ns, percent
-- params: none
SELECT p.rank, p.name AS profile, json_extract(k.value, '$.type') AS kernel_type,
       json_extract(k.value, '$.ns') AS time_ns,
       ROUND(100.0 * json_extract(k.value, '$.ns') /
             NULLIF((SELECT SUM(json_extract(x.value, '$.ns')) FROM json_each(p.record, '$.device.kernel_types') x), 0), 1) AS percent
FROM profile p, json_each(p.record, '$.device.kernel_types') k
ORDER BY p.rank NULLS LAST, p.name, time_ns DESC;
