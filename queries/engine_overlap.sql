-- engine_overlap: time each pair of engines is busy at once (a sweep over sorted busy intervals)
-- columns: profile, engine_a, engine_b, overlap_ns, percent_of_a, percent_of_b
-- params: profile (name or id; default every profile)
WITH p AS (
    SELECT id, name FROM profile WHERE :profile IS NULL OR name = :profile OR uid = :profile
),
-- engine_masks sweeps all engines' merged intervals once: time per set of
-- engines busy together.  Pairs and per-engine totals follow from it.
m AS (SELECT p.id AS pid, m.dur_ns, ',' || m.engines || ',' AS set_ FROM p, engine_masks(p.id) m),
e AS (SELECT DISTINCT pid, value AS engine FROM m, json_each('["' || replace(trim(set_, ','), ',', '","') || '"]')),
busy AS (SELECT e.pid, e.engine, SUM(m.dur_ns) AS busy_ns FROM e JOIN m ON m.pid = e.pid AND instr(m.set_, ',' || e.engine || ',') > 0 GROUP BY e.pid, e.engine)
SELECT p.name AS profile, a.engine AS engine_a, b.engine AS engine_b, SUM(m.dur_ns) AS overlap_ns,
       ROUND(100.0 * SUM(m.dur_ns) / a.busy_ns, 2) AS percent_of_a,
       ROUND(100.0 * SUM(m.dur_ns) / b.busy_ns, 2) AS percent_of_b
FROM m
JOIN busy a ON a.pid = m.pid AND instr(m.set_, ',' || a.engine || ',') > 0
JOIN busy b ON b.pid = m.pid AND b.engine > a.engine AND instr(m.set_, ',' || b.engine || ',') > 0
JOIN p ON p.id = m.pid
GROUP BY m.pid, a.engine, b.engine
ORDER BY m.pid, overlap_ns DESC;
