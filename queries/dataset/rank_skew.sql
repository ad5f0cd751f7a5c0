-- rank_skew: per rank: its span of events and how much longer than the fastest rank's it is
-- columns: rank, profile, name, span_ns, vs_fastest, behind_fastest_ns
-- params: none
SELECT rank, profile, name, end_ns - start_ns AS span_ns,
       ROUND(1.0 * (end_ns - start_ns) / NULLIF(MIN(end_ns - start_ns) OVER (), 0), 4) AS vs_fastest,
       (end_ns - start_ns) - MIN(end_ns - start_ns) OVER () AS behind_fastest_ns
FROM profiles
ORDER BY rank NULLS LAST, profile;
