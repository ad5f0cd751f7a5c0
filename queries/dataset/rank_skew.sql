-- rank_skew: per rank: its span of events and how much longer than the fastest rank's running the same graph in the same capture and window of steps it is
-- columns: rank, profile, name, span_ns, vs_fastest, behind_fastest_ns, neff_hash, first_step, last_step
-- params: none
-- A rank runs one profile per graph (NEFF) in a capture, one per window of
-- steps of a PyTorch profiler schedule that repeats: each is set against the
-- fastest of the same three, as nx-report --ranks sets them.  A profile
-- without a rank is no rank's: left out, as --ranks leaves it.
SELECT rank, profile, name, end_ns - start_ns AS span_ns,
       ROUND(1.0 * (end_ns - start_ns) / NULLIF(MIN(end_ns - start_ns) OVER peers, 0), 4) AS vs_fastest,
       (end_ns - start_ns) - MIN(end_ns - start_ns) OVER peers AS behind_fastest_ns,
       neff_hash, first_step, last_step
FROM profiles
WHERE rank IS NOT NULL
WINDOW peers AS (PARTITION BY capture_dir, neff_hash, first_step, last_step)
ORDER BY rank, capture_dir NULLS LAST, neff_hash NULLS LAST, first_step NULLS LAST, profile;
