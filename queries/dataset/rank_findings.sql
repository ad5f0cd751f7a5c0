-- rank_findings: per rank, its findings, the most severe first
-- columns: rank, profile, severity, rule, message
-- params: severity (critical, warn, info; default all)
SELECT rank, profile, severity, rule, message
FROM findings
WHERE :severity IS NULL OR severity = :severity
ORDER BY rank NULLS LAST, profile, CASE severity WHEN 'critical' THEN 0 WHEN 'warn' THEN 1 ELSE 2 END, rule;
