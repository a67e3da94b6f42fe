-- Outgoing webhook destinations and their durable delivery queue.
CREATE TABLE destinations (
  id          text PRIMARY KEY,
  project_id  text NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  name        text NOT NULL,
  url         text NOT NULL,
  format      text NOT NULL CHECK (format IN ('json', 'text', 'embed')),
  enabled     boolean NOT NULL DEFAULT true,
  -- whsec_...: the HMAC key must be usable, so it cannot be hashed; only json destinations have one.
  secret      text,
  -- The attempt that last ended a delivery (lastStatus); all null before the first one.
  last_ok     boolean,
  last_at     timestamptz,
  last_status integer,
  last_error  text,
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX destinations_project ON destinations (project_id, created_at, id);

-- One row per (notify event, destination), written when the outbox row is fanned out. The body
-- is rendered then and frozen, so retries, a restart and a replay send the same bytes under the
-- same webhook-id. event_id has no foreign key: the log outlives a deleted event.
-- A sender claims a row by setting lease_token and locked_until; a crashed sender's lease expires.
CREATE TABLE deliveries (
  id              text PRIMARY KEY,
  destination_id  text NOT NULL REFERENCES destinations(id) ON DELETE CASCADE,
  event_id        integer NOT NULL,
  webhook_id      text NOT NULL,
  body            text NOT NULL,
  status          text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'succeeded', 'failed')),
  attempts        integer NOT NULL DEFAULT 0,
  max_attempts    integer NOT NULL,
  next_attempt_at timestamptz,
  locked_until    timestamptz,
  lease_token     text,
  created_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX deliveries_due ON deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX deliveries_log ON deliveries (destination_id, created_at DESC, id DESC);

CREATE TABLE delivery_attempts (
  delivery_id text NOT NULL REFERENCES deliveries(id) ON DELETE CASCADE,
  attempt     integer NOT NULL,
  at          timestamptz NOT NULL,
  status      integer,
  duration_ms integer,
  error       text,
  -- The first 1 KB of the receiver's answer, for the attempt log.
  response    text,
  PRIMARY KEY (delivery_id, attempt)
);
