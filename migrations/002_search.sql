-- Search matches title, description and the serialized text of tags. One trigram GIN index
-- over their concatenation (one index costs far less on insert than three). The expression
-- must stay identical to `searchDocument` in src/features/events/queries.ts.
-- Where pg_trgm is missing the query still works, by scanning.
DO $$
BEGIN
  CREATE EXTENSION IF NOT EXISTS pg_trgm;
EXCEPTION WHEN OTHERS THEN
  RAISE NOTICE 'pg_trgm unavailable (%); search will scan', SQLERRM;
END
$$;

DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN
    EXECUTE $i$
      CREATE INDEX IF NOT EXISTS events_search ON events USING gin (
        (title || E'\x1f' || coalesce(description, '') || E'\x1f' || coalesce(tags::text, '')) gin_trgm_ops
      )
    $i$;
  END IF;
END
$$;
