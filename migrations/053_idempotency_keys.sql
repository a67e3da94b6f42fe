-- Idempotency-Key of POST /api/events and POST /v1/log (extensions.md, "Idempotent creates").
-- A row is claimed before the create (status NULL: in flight) and completed with the reply the
-- client got; a failed create deletes its row so the key can be retried. Rows older than
-- 24 hours are dead: a new claim overwrites them, and a background sweep deletes them.
-- claim_token lets only the request that claimed a row complete or release it.
CREATE TABLE idempotency_keys (
  organization_id text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  route           text NOT NULL,
  key             text NOT NULL,
  request_hash    bytea NOT NULL,
  claim_token     text NOT NULL,
  claimed_at      timestamptz NOT NULL,
  created_at      timestamptz NOT NULL,
  status          integer,
  body            jsonb,
  PRIMARY KEY (organization_id, route, key)
);
CREATE INDEX idempotency_keys_expiry ON idempotency_keys (organization_id, created_at);
