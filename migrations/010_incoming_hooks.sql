-- Incoming hooks: secret URLs that create events without an API key.
-- The token is looked up by its SHA-256 (token_hash), so no index or comparison ever touches
-- the token itself and the lookup time says nothing about near matches. token_sealed is the
-- token encrypted under a key kept in `settings`, only so the dashboard can show the URL again
-- (docs/decisions/010-hook-tokens.md).
CREATE TABLE incoming_hooks (
  id           text PRIMARY KEY,
  project_id   text NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  name         text NOT NULL,
  category     text NOT NULL,
  token_hash   bytea NOT NULL UNIQUE,
  token_sealed text NOT NULL,
  enabled      boolean NOT NULL DEFAULT true,
  created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX incoming_hooks_project ON incoming_hooks (project_id, created_at, id);

-- Events counted against the organization's monthly cap, per calendar month in UTC. The hook
-- checks and counts in one statement inside the event's transaction (docs/decisions/011-monthly-event-cap.md).
CREATE TABLE organization_usage (
  organization_id text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  month           date NOT NULL,
  events          integer NOT NULL,
  PRIMARY KEY (organization_id, month)
);
