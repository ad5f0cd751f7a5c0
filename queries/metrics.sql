-- metrics: every summary metric of a profile, with unit and origin (source or derived)
-- columns: profile, metric, value, unit, origin
-- params: profile (name or id; default every profile), metric (SQL LIKE pattern; default all)
SELECT p.name AS profile, m.name AS metric, m.value, m.unit, m.origin
FROM metric m JOIN profile p ON p.id = m.profile_id
WHERE (:profile IS NULL OR p.name = :profile OR p.uid = :profile)
  AND (:metric IS NULL OR m.name LIKE :metric)
ORDER BY p.id, m.name;
