-- rank_collectives: per rank: collective operations, their time, and the wait (each operation's duration minus its shortest on any rank running the same graph in the same capture and window of steps)
-- columns: rank, profile, ops, collective_ns, wait_ns, neff_hash, first_step, last_step
-- params: none
-- A rank runs one profile per graph (NEFF) in a capture, and a PyTorch
-- profiler schedule that repeats leaves one trace per window of steps: only
-- the same capture's, graph's and window's k-th operations are one operation
-- across ranks, as nx-report --ranks matches them.  (A profile converted
-- under two ranks is in two partitions: each is joined to its own.  One
-- without a rank is no rank's: left out, as --ranks leaves it.)
WITH ops AS (
    SELECT c.rank, c.profile, c.seq, c.dur_ns, p.capture_dir, p.neff_hash, p.first_step, p.last_step
    FROM collectives c JOIN profiles p ON p.profile = c.profile AND p.rank = c.rank
), shortest AS (
    SELECT capture_dir, neff_hash, first_step, last_step, seq, MIN(dur_ns) AS dur_ns
    FROM ops GROUP BY capture_dir, neff_hash, first_step, last_step, seq
)
SELECT o.rank, o.profile, COUNT(*) AS ops, SUM(o.dur_ns) AS collective_ns, SUM(o.dur_ns - s.dur_ns) AS wait_ns,
       o.neff_hash, o.first_step, o.last_step
FROM ops o JOIN shortest s
    ON s.capture_dir IS NOT DISTINCT FROM o.capture_dir AND s.neff_hash IS NOT DISTINCT FROM o.neff_hash
   AND s.first_step IS NOT DISTINCT FROM o.first_step AND s.last_step IS NOT DISTINCT FROM o.last_step AND s.seq = o.seq
GROUP BY o.rank, o.profile, o.capture_dir, o.neff_hash, o.first_step, o.last_step
ORDER BY o.rank, o.capture_dir NULLS LAST, o.neff_hash NULLS LAST, o.first_step NULLS LAST, o.profile;
