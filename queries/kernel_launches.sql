-- kernel_launches: HTA's kernel launch statistics: each launch call that queues device work (cudaLaunchKernel, cudaMemcpyAsync, cudaMemsetAsync, their HIP and MTIA kin) joined to its work by correlation id: the CPU's time in the call, the device's in the work, and the launch delay from the call's end to the work's start
-- columns: profile, correlation, launch, kernel, cpu_duration_ns, gpu_duration_ns, launch_delay_ns
-- params: profile (name or id; default every profile)
WITH launch AS (
  SELECT e.profile_id, json_extract(e.args, '$.correlation') AS corr, e.name, e.ts, e.dur
  FROM event e JOIN profile p ON p.id = e.profile_id
  WHERE e.type = 'runtime' AND e.args IS NOT NULL
    AND e.name IN ('cudaLaunchKernel', 'cudaLaunchKernelExC', 'cuLaunchKernel', 'cuLaunchKernelEx', 'cudaMemcpyAsync',
                   'cudaMemsetAsync', 'hipLaunchKernel', 'hipExtLaunchKernel', 'hipExtModuleLaunchKernel',
                   'hipModuleLaunchKernel', 'hipMemcpyAsync', 'hipMemsetAsync',
                   'runFunction - job_prep_and_submit_for_execution')
    AND (:profile IS NULL OR p.name = :profile OR p.uid = :profile)),
work AS (
  SELECT e.profile_id, json_extract(e.args, '$.correlation') AS corr, COALESCE(e.name, e.opcode) AS name, e.ts, e.dur
  FROM event e JOIN profile p ON p.id = e.profile_id
  WHERE e.type IN ('kernel', 'memcpy', 'memset') AND e.args IS NOT NULL
    AND (:profile IS NULL OR p.name = :profile OR p.uid = :profile))
SELECT p.name AS profile, l.corr AS correlation, l.name AS launch, w.name AS kernel, l.dur AS cpu_duration_ns,
       w.dur AS gpu_duration_ns, w.ts - (l.ts + l.dur) AS launch_delay_ns
FROM launch l JOIN work w ON w.profile_id = l.profile_id AND w.corr = l.corr
JOIN profile p ON p.id = l.profile_id
ORDER BY p.id, w.ts;
