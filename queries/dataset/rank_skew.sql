-- rank_skew: per rank: its span of events and how much longer than the fastest rank's running the same graph it is
-- columns: rank, profile, name, span_ns, vs_fastest, behind_fastest_ns, neff_hash
-- params: none
-- A rank runs one profile per graph (NEFF): each is set against the same
-- graph's fastest.
SELECT rank, profile, name, end_ns - start_ns AS span_ns,
       ROUND(1.0 * (end_ns - start_ns) / NULLIF(MIN(end_ns - start_ns) OVER graph, 0), 4) AS vs_fastest,
       (end_ns - start_ns) - MIN(end_ns - start_ns) OVER graph AS behind_fastest_ns,
       neff_hash
FROM profiles
WINDOW graph AS (PARTITION BY COALESCE(neff_hash, ''))
ORDER BY rank NULLS LAST, neff_hash NULLS LAST, profile;
