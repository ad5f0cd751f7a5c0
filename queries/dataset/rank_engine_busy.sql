-- rank_engine_busy: per rank and engine: instructions and busy time (the union of the engine's intervals, as nx-report)
-- columns: rank, profile, engine, instructions, busy_ns, active_percent
-- params: engine (tensor, vector, scalar, gpsimd, sync, dma ...; default every engine)
SELECT rank, profile, engine, instructions, busy_ns, active_percent
FROM engines
WHERE :engine IS NULL OR engine = :engine
ORDER BY rank NULLS LAST, profile, engine;
