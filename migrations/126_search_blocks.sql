-- Search entries by blocks of events instead of one per event (docs/decisions/167-search-blocks.md).
-- The trigram index was the largest single piece of the database's work per event: one entry for
-- each of an event's ~100 trigrams. A block holds the distinct words of up to 64 consecutive
-- events of one project, and the events' own text is checked by the search itself, so the index
-- writes each trigram once per block. The indexer (src/features/events/searchIndexer.ts) still
-- works from each organization's watermark; the blocks replace event_search, and every
-- organization's watermark starts again at 0 so that its processes fill the blocks (search scans
-- the events above the watermark meanwhile, as it does for new events).

CREATE TABLE search_blocks (
  organization_id text NOT NULL,
  -- The block's smallest event id: its key. Blocks of one project cover disjoint id ranges.
  first_event_id integer NOT NULL,
  project_id text NOT NULL,
  last_event_id integer NOT NULL,
  -- The block's events at the time it was written; a deleted one is skipped by search's join.
  event_ids integer[] NOT NULL,
  -- The distinct words of the events' search documents, space-separated (searchWords.ts).
  words text NOT NULL,
  -- Set by a delete of one of its events: the indexer writes the block's words again from the
  -- events that remain, so a deleted event's words do not stay behind.
  stale boolean NOT NULL DEFAULT false,
  PRIMARY KEY (organization_id, first_event_id)
);

ALTER TABLE search_blocks ADD CONSTRAINT search_blocks_project_fkey
  FOREIGN KEY (organization_id, project_id) REFERENCES projects (organization_id, id) ON DELETE CASCADE;

-- A delete finds the block of each of its events: the first whose range ends at or after it.
CREATE INDEX search_blocks_range ON search_blocks (organization_id, project_id, last_event_id);

CREATE INDEX search_blocks_stale ON search_blocks (organization_id) WHERE stale;

DROP TABLE event_search;

UPDATE search_progress SET indexed_through = 0;

DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN
    EXECUTE 'CREATE INDEX search_blocks_words ON search_blocks USING gin (words gin_trgm_ops)';
  END IF;
END
$$;
