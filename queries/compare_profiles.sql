-- compare_profiles: the metrics of two profiles side by side, with ratio and change
-- columns: metric, unit, a, b, ratio, delta_percent, profile_a, profile_b
-- params: a, b (profile names or ids; default the first and the last profile)
WITH pa AS (
    SELECT id, name FROM profile
    WHERE (:a IS NOT NULL AND (name = :a OR uid = :a)) OR (:a IS NULL AND id = (SELECT MIN(id) FROM profile))
    LIMIT 1
),
pb AS (
    SELECT id, name FROM profile
    WHERE (:b IS NOT NULL AND (name = :b OR uid = :b)) OR (:b IS NULL AND id = (SELECT MAX(id) FROM profile))
    LIMIT 1
),
names AS (
    SELECT name, MAX(unit) AS unit FROM metric
    WHERE profile_id IN (SELECT id FROM pa UNION SELECT id FROM pb) GROUP BY name
)
SELECT n.name AS metric, n.unit, ma.value AS a, mb.value AS b,
       ROUND(mb.value / NULLIF(ma.value, 0), 4) AS ratio,
       ROUND(100.0 * (mb.value - ma.value) / NULLIF(ABS(ma.value), 0), 2) AS delta_percent,
       (SELECT name FROM pa) AS profile_a, (SELECT name FROM pb) AS profile_b
FROM names n
LEFT JOIN metric ma ON ma.profile_id = (SELECT id FROM pa) AND ma.name = n.name
LEFT JOIN metric mb ON mb.profile_id = (SELECT id FROM pb) AND mb.name = n.name
ORDER BY n.name;
