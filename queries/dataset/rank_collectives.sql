-- rank_collectives: per rank: collective operations, their time, and the wait (each operation's duration minus its shortest on any rank)
-- columns: rank, profile, ops, collective_ns, wait_ns
-- params: none
WITH shortest AS (
    SELECT seq, MIN(dur_ns) AS dur_ns FROM collectives GROUP BY seq
)
SELECT c.rank, c.profile, COUNT(*) AS ops, SUM(c.dur_ns) AS collective_ns, SUM(c.dur_ns - s.dur_ns) AS wait_ns
FROM collectives c JOIN shortest s ON s.seq = c.seq
GROUP BY c.rank, c.profile
ORDER BY c.rank NULLS LAST, c.profile;
