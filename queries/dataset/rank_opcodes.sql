-- rank_opcodes: per rank, the opcodes that took the most instruction time (from the opcodes table: an opcode, or the name where the source gives none, as the report's top opcodes)
-- columns: rank, opcode, instructions, time_ns
-- params: limit (per rank; default 5)
WITH per AS (
    SELECT rank, opcode, SUM(instructions) AS instructions, SUM(time_ns) AS time_ns
    FROM opcodes
    GROUP BY rank, opcode
), ranked AS (
    SELECT rank, opcode, instructions, time_ns,
           ROW_NUMBER() OVER (PARTITION BY rank ORDER BY time_ns DESC, opcode) AS n
    FROM per
)
SELECT rank, opcode, instructions, time_ns
FROM ranked
WHERE n <= COALESCE(:limit, 5)
ORDER BY rank NULLS LAST, time_ns DESC, opcode;
