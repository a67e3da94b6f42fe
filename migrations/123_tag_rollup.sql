-- Per-day counts by tag value for the tag keys a project charts by (`groupBy=tag:<key>`), so a
-- breakdown reads days x categories x values rows instead of the range's events (decision 131).

-- A tag key rolled up for a project. Ingest counts the events with ids above `counted_after_id`
-- (the organization's last event id when the key was registered, under its counter's lock); the
-- backfill counts those up to it, in id ranges, and records how far it got in
-- `backfilled_up_to`. The key serves charts once `backfilled_up_to` reaches `counted_after_id`.
CREATE TABLE tag_rollup_keys (
  organization_id  text NOT NULL,
  project_id       text NOT NULL,
  tag_key          text NOT NULL,
  counted_after_id integer NOT NULL,
  backfilled_up_to integer NOT NULL DEFAULT 0,
  created_at       timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, project_id, tag_key)
);

ALTER TABLE tag_rollup_keys ADD CONSTRAINT tag_rollup_keys_project_fkey
  FOREIGN KEY (organization_id, project_id) REFERENCES projects (organization_id, id) ON DELETE CASCADE;

-- `value` is the tag's jsonb value (SQL null: the event has no such tag). The key holds its hash,
-- not the value (a tag value has no length limit, a btree entry has one); jsonb hashing agrees
-- with jsonb equality, so `1.50` and `1.5` are one row. `day` is in the chart time zone, as in
-- event_daily_counts.
CREATE TABLE tag_daily_counts (
  organization_id text NOT NULL,
  project_id      text NOT NULL,
  tag_key         text NOT NULL,
  day             date NOT NULL,
  category        text NOT NULL,
  value           jsonb,
  value_hash      bigint NOT NULL GENERATED ALWAYS AS (coalesce(jsonb_hash_extended(value, 0), 0)) STORED,
  count           integer NOT NULL,
  PRIMARY KEY (organization_id, project_id, tag_key, day, category, value_hash)
);

ALTER TABLE tag_daily_counts ADD CONSTRAINT tag_daily_counts_project_fkey
  FOREIGN KEY (organization_id, project_id) REFERENCES projects (organization_id, id) ON DELETE CASCADE;

-- Set on an organization's event counter row when it registers its first key: ingest reads it with
-- its ids and writes the counts by tag value only then, so other organizations pay nothing.
ALTER TABLE id_counters ADD COLUMN rolls_up_tags boolean NOT NULL DEFAULT false;
