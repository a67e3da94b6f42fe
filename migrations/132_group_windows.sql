-- Grouping bursts (extensions.md, "Grouping bursts"; decision 178). A destination's window: 0
-- (each notify event is its own message) or 10-3600 seconds. A held group is one pending
-- delivery due at its window's end, holding its events' ids; events that arrive before then join
-- it (its body rendered again), so a restart loses nothing.
-- The column, then its check: Citus refuses ADD COLUMN with a constraint on a distributed table.
ALTER TABLE destinations ADD COLUMN group_window_seconds integer NOT NULL DEFAULT 0;
ALTER TABLE destinations ADD CONSTRAINT destinations_group_window_seconds_check
  CHECK (group_window_seconds = 0 OR group_window_seconds BETWEEN 10 AND 3600);
ALTER TABLE deliveries ADD COLUMN event_ids integer[];
