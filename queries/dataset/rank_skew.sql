-- rank_skew: per rank: its total time and how much longer than the fastest rank's running the same graph in the same capture and window of steps it is
-- columns: rank, profile, name, total_ns, vs_fastest, behind_fastest_ns, neff_hash, first_step, last_step, span_ns
-- params: none
-- A rank runs one profile per graph (NEFF) in a capture, one per window of
-- steps of a PyTorch profiler schedule that repeats: each is set against the
-- fastest of the same three, as nx-report --ranks sets them.  A profile
-- without a rank is no rank's: left out, as --ranks leaves it.  The total
-- time is the profiler's own (total_time, whole ns) where it gives one, as
-- the report's, else the span of the profile's events (span_ns), which
-- differs from it by a little either way (an Explorer profile's total time
-- is longer; the real inf2 sample's, 164 ns shorter).
WITH t AS (
    SELECT p.rank, p.profile, p.name, p.neff_hash, p.first_step, p.last_step, p.capture_dir,
           p.end_ns - p.start_ns AS span_ns,
           COALESCE(CAST(ROUND(m.value * 1e9) AS BIGINT), p.end_ns - p.start_ns) AS total_ns
    FROM profiles p
    LEFT JOIN metrics m ON m.rank = p.rank AND m.profile = p.profile AND m.name = 'total_time'
    WHERE p.rank IS NOT NULL
)
SELECT rank, profile, name, total_ns,
       ROUND(1.0 * total_ns / NULLIF(MIN(total_ns) OVER peers, 0), 4) AS vs_fastest,
       total_ns - MIN(total_ns) OVER peers AS behind_fastest_ns,
       neff_hash, first_step, last_step, span_ns
FROM t
WINDOW peers AS (PARTITION BY capture_dir, neff_hash, first_step, last_step)
ORDER BY rank, capture_dir NULLS LAST, neff_hash NULLS LAST, first_step NULLS LAST, profile;
