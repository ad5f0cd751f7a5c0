-- rank_findings: per rank, its findings, the most severe first, then by rule and message
-- columns: rank, profile, severity, rule, message
-- params: severity (critical, warn, info; default all)
SELECT rank, profile, severity, rule, message
FROM findings
WHERE :severity IS NULL OR severity = :severity
-- Ties broken on every column shown, so that any engine gives the same rows
-- in the same order (a profile's file keeps the report's order, which SQL
-- does not see).
ORDER BY rank NULLS LAST, profile, CASE severity WHEN 'critical' THEN 0 WHEN 'warn' THEN 1 ELSE 2 END, rule, message;
