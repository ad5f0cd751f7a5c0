-- rank_collectives: per rank: collective operations, their time, and the wait (each operation's duration minus its shortest on any rank running the same graph)
-- columns: rank, profile, ops, collective_ns, wait_ns, neff_hash
-- params: none
-- A rank runs one profile per graph (NEFF); only the same graph's k-th
-- operations are one operation across ranks.  (A profile converted under
-- two ranks is in two partitions: each is joined to its own.)
WITH ops AS (
    SELECT c.rank, c.profile, c.seq, c.dur_ns, p.neff_hash, COALESCE(p.neff_hash, '') AS graph
    FROM collectives c JOIN profiles p ON p.profile = c.profile AND p.rank IS NOT DISTINCT FROM c.rank
), shortest AS (
    SELECT graph, seq, MIN(dur_ns) AS dur_ns FROM ops GROUP BY graph, seq
)
SELECT o.rank, o.profile, COUNT(*) AS ops, SUM(o.dur_ns) AS collective_ns, SUM(o.dur_ns - s.dur_ns) AS wait_ns,
       o.neff_hash
FROM ops o JOIN shortest s ON s.graph = o.graph AND s.seq = o.seq
GROUP BY o.rank, o.profile, o.neff_hash
ORDER BY o.rank NULLS LAST, o.neff_hash NULLS LAST, o.profile;
