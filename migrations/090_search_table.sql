-- Search entries are written after the event's commit, not by it (docs/decisions/090-search-table.md).
-- The trigram index was most of the database's work per event: three quarters of an import's
-- time and the largest piece of every ingest batch. It now lives on a table of its own, filled
-- in the background by every server process (src/features/events/searchIndexer.ts) from each
-- organization's watermark; search reads the indexed rows and scans the few events above the
-- watermark, so what it finds is the same as before, the moment an event is committed.

CREATE TABLE event_search (
  organization_id text NOT NULL,
  event_id integer NOT NULL,
  -- Copied from the event so that the project filter is checked beside the index.
  project_id text NOT NULL,
  -- `searchDocument` of the event (src/features/events/queries.ts), computed when indexed.
  document text NOT NULL,
  PRIMARY KEY (organization_id, event_id),
  FOREIGN KEY (organization_id, event_id) REFERENCES events (organization_id, id) ON DELETE CASCADE
);

-- Every event of the organization with an id up to `indexed_through` has its entry. Ids follow
-- commit order within an organization (decision 040), so nothing can appear below it later.
-- Existing installations start without a row: the indexer fills their entries from id 1 while
-- search scans what it has not reached yet.
CREATE TABLE search_progress (
  organization_id text PRIMARY KEY REFERENCES organizations (id) ON DELETE CASCADE,
  indexed_through integer NOT NULL CHECK (indexed_through >= 0)
);

DROP INDEX IF EXISTS events_search;

DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN
    EXECUTE 'CREATE INDEX event_search_document ON event_search USING gin (document gin_trgm_ops)';
  END IF;
END
$$;
