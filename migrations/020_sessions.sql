-- Dashboard sign-in sessions. The cookie carries a random token; only its SHA-256 is kept, so
-- a copy of this table cannot be replayed as cookies. Expiry is checked on every lookup:
-- absolute at expires_at (30 days after sign-in), idle 7 days after last_seen_at.
CREATE TABLE sessions (
  id_hash         bytea PRIMARY KEY,
  user_id         text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  organization_id text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  csrf_token      text NOT NULL,
  created_at      timestamptz NOT NULL DEFAULT now(),
  expires_at      timestamptz NOT NULL,
  last_seen_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX sessions_user ON sessions (user_id);
CREATE INDEX sessions_expires ON sessions (expires_at);
