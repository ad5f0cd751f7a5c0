-- top_opcodes: the opcodes that take the most engine time, per profile
-- columns: profile, engine, opcode, count, total_ns, mean_ns, percent_of_time
-- params: profile (name or id; default every profile), limit (per profile; default 20)
WITH ops AS (
    SELECT e.profile_id, t.engine, COALESCE(e.opcode, e.name) AS opcode,
           COUNT(*) AS count, SUM(e.dur) AS total_ns, AVG(e.dur) AS mean_ns
    FROM event e JOIN track t ON t.id = e.track_id JOIN profile p ON p.id = e.profile_id
    WHERE e.type = 'instruction' AND (:profile IS NULL OR p.name = :profile OR p.uid = :profile)
    GROUP BY e.profile_id, t.engine, COALESCE(e.opcode, e.name)
),
ranked AS (
    SELECT *, ROW_NUMBER() OVER (PARTITION BY profile_id ORDER BY total_ns DESC, opcode) AS rank,
           100.0 * total_ns / SUM(total_ns) OVER (PARTITION BY profile_id) AS share
    FROM ops
)
SELECT p.name AS profile, r.engine, r.opcode, r.count, r.total_ns, ROUND(r.mean_ns, 1) AS mean_ns,
       ROUND(r.share, 2) AS percent_of_time
FROM ranked r JOIN profile p ON p.id = r.profile_id
WHERE r.rank <= COALESCE(:limit, 20)
ORDER BY p.id, r.rank;
