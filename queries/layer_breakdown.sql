-- layer_breakdown: instruction time per framework layer and HLO op
-- columns: profile, layer, hlo_name, instructions, total_ns, percent_of_time
-- params: profile (name or id; default every profile), limit (rows per profile; default 30)
WITH l AS (
    SELECT e.profile_id, e.layer_id, e.hlo_id, COUNT(*) AS instructions, SUM(e.dur) AS total_ns
    FROM event e JOIN profile p ON p.id = e.profile_id
    WHERE e.type = 'instruction' AND (:profile IS NULL OR p.name = :profile OR p.uid = :profile)
    GROUP BY e.profile_id, e.layer_id, e.hlo_id
),
ranked AS (
    SELECT *, ROW_NUMBER() OVER (PARTITION BY profile_id ORDER BY total_ns DESC) AS rank,
           100.0 * total_ns / SUM(total_ns) OVER (PARTITION BY profile_id) AS share
    FROM l
)
SELECT p.name AS profile, COALESCE(sl.value, '(none)') AS layer, COALESCE(sh.value, '(none)') AS hlo_name,
       r.instructions, r.total_ns, ROUND(r.share, 2) AS percent_of_time
FROM ranked r JOIN profile p ON p.id = r.profile_id
LEFT JOIN string sl ON sl.id = r.layer_id
LEFT JOIN string sh ON sh.id = r.hlo_id
WHERE r.rank <= COALESCE(:limit, 30)
ORDER BY p.id, r.rank;
