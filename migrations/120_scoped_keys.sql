-- Scoped API keys (extensions.md, "Scoped API keys").
--
-- Every key made before scopes existed could do everything in its organization, so the default
-- access is 'full' and `projects` is null (every project). `projects` holds project ids without a
-- foreign key (an array cannot have one): a key limited to a deleted project simply sees nothing.
-- `origins` is set only on 'ingest' keys meant for web pages.
-- Columns first, then their named checks: a distributed engine refuses a constraint added with its column.
ALTER TABLE api_keys ADD COLUMN access text NOT NULL DEFAULT 'full';
ALTER TABLE api_keys ADD COLUMN projects text[];
ALTER TABLE api_keys ADD COLUMN origins text[];
ALTER TABLE api_keys ADD CONSTRAINT api_keys_access_check CHECK (access IN ('full', 'ingest', 'read'));
ALTER TABLE api_keys ADD CONSTRAINT api_keys_projects_check CHECK (projects IS NULL OR cardinality(projects) > 0);
ALTER TABLE api_keys ADD CONSTRAINT api_keys_origins_check CHECK (origins IS NULL OR (access = 'ingest' AND cardinality(origins) BETWEEN 1 AND 20));

-- Events written with a browser key, counted per client address and minute, so that every server
-- process sharing the database keeps the same limit (60 a minute). One row per organization,
-- address and window; rows of past windows are deleted by the audit pruner's hourly pass.
CREATE TABLE browser_event_counts (
  organization_id text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  address         text NOT NULL,
  window_start    timestamptz NOT NULL,
  count           integer NOT NULL,
  PRIMARY KEY (organization_id, address, window_start)
);
CREATE INDEX browser_event_counts_window ON browser_event_counts (window_start);
