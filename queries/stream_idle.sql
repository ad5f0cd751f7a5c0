-- stream_idle: HTA's idle time breakdown per device stream: the gaps between its work by cause (host_wait: the work was launched after the previous work ended; kernel_wait: a gap under 30 us; other) and each cause's share of the stream's idle time
-- columns: rank, profile, stream, work, busy_ns, idle_category, idle_ns, idle_ratio
-- params: none
WITH s AS (
  SELECT p.rank, p.name AS profile, json_extract(x.value, '$.stream') AS stream, json_extract(x.value, '$.events') AS work,
         json_extract(x.value, '$.busy_ns') AS busy_ns, json_extract(x.value, '$.host_wait_ns') AS host_wait,
         json_extract(x.value, '$.kernel_wait_ns') AS kernel_wait, json_extract(x.value, '$.other_wait_ns') AS other_wait
  FROM profile p, json_each(p.record, '$.device.streams') x),
c AS (
  SELECT rank, profile, stream, work, busy_ns, 1 AS k, 'host_wait' AS idle_category, host_wait AS idle_ns,
         host_wait + kernel_wait + other_wait AS total FROM s
  UNION ALL SELECT rank, profile, stream, work, busy_ns, 2, 'kernel_wait', kernel_wait, host_wait + kernel_wait + other_wait FROM s
  UNION ALL SELECT rank, profile, stream, work, busy_ns, 3, 'other', other_wait, host_wait + kernel_wait + other_wait FROM s)
SELECT rank, profile, stream, work, busy_ns, idle_category, idle_ns, ROUND(1.0 * idle_ns / NULLIF(total, 0), 2) AS idle_ratio
FROM c
ORDER BY rank NULLS LAST, profile, stream, k;
