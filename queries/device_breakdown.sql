-- device_breakdown: per profile of a PyTorch trace with device streams (GPU, MTIA), HTA's temporal breakdown: the device window (HTA's kernel time) and its idle, compute and non-compute shares, and the communication time spent computing too
-- columns: rank, profile, window_ns, idle_percent, compute_percent, non_compute_percent, communication_ns, memory_ns, comm_comp_overlap_percent
-- params: none
SELECT p.rank, p.name AS profile,
       ROUND(1e9 * MAX(CASE WHEN m.name = 'device_window_time' THEN m.value END)) AS window_ns,
       ROUND(MAX(CASE WHEN m.name = 'device_idle_time_percent' THEN m.value END), 3) AS idle_percent,
       ROUND(MAX(CASE WHEN m.name = 'device_compute_time_percent' THEN m.value END), 3) AS compute_percent,
       ROUND(MAX(CASE WHEN m.name = 'device_non_compute_time_percent' THEN m.value END), 3) AS non_compute_percent,
       ROUND(1e9 * MAX(CASE WHEN m.name = 'device_communication_time' THEN m.value END)) AS communication_ns,
       ROUND(1e9 * MAX(CASE WHEN m.name = 'device_memory_time' THEN m.value END)) AS memory_ns,
       ROUND(MAX(CASE WHEN m.name = 'comm_comp_overlap_percent' THEN m.value END), 3) AS comm_comp_overlap_percent
FROM profile p JOIN metric m ON m.profile_id = p.id
WHERE m.name LIKE 'device\_%' ESCAPE '\' OR m.name = 'comm_comp_overlap_percent'
GROUP BY p.id
ORDER BY p.rank NULLS LAST, p.name;
