-- Web Push subscriptions of dashboard users' browsers, per project.
CREATE TABLE push_subscriptions (
  id         text PRIMARY KEY,
  project_id text NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  user_id    text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  endpoint   text NOT NULL,
  p256dh     text NOT NULL,
  auth       text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (project_id, endpoint)
);
CREATE INDEX push_subscriptions_endpoint ON push_subscriptions (endpoint);

-- Pending pushes, one per (notify event, subscription), claimed like deliveries. A row is
-- deleted once its push is accepted or finally refused; a gone subscription takes its rows along.
CREATE TABLE push_jobs (
  id              text PRIMARY KEY,
  subscription_id text NOT NULL REFERENCES push_subscriptions(id) ON DELETE CASCADE,
  event_id        integer NOT NULL,
  payload         text NOT NULL,
  attempts        integer NOT NULL DEFAULT 0,
  max_attempts    integer NOT NULL,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  locked_until    timestamptz,
  lease_token     text,
  created_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX push_jobs_due ON push_jobs (next_attempt_at);
