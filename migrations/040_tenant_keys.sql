-- A tenant-keyed schema (docs/scaling.md, docs/decisions/040-tenant-keys.md):
--
-- * every tenant-owned table carries organization_id, first in its primary key and in every
--   unique constraint, and foreign keys between tenant tables are composite on it, so that a
--   distributed PostgreSQL (Citus) can shard every table by organization_id, colocated;
-- * event and insight ids are allocated per organization from id_counters instead of two
--   installation-wide sequences (extensions.md, "Ids");
-- * lookups that are installation-wide by nature (a credential's hash, a sign-in email) go
--   through two small routing tables keyed by the looked-up value.
--
-- Existing installations keep every id: ids were unique installation-wide, so they stay unique
-- within each organization, and each organization's counters start after its highest id (for
-- events, also after any id its delivery log or push queue still names).
--
-- Each table is rebuilt rather than altered: the rows are copied into a new table that has the
-- organization column, the old table is dropped, and keys, indexes and foreign keys are built
-- once over the loaded rows (far faster than updating every row under its indexes).

-- ---- Copy every tenant table into its new shape -------------------------------------------

CREATE TABLE new_api_keys (
  organization_id text NOT NULL,
  id              text NOT NULL,
  key_hash        bytea NOT NULL,
  prefix          text NOT NULL,
  created_at      timestamptz NOT NULL DEFAULT now(),
  last_used_at    timestamptz,
  revoked_at      timestamptz
);
INSERT INTO new_api_keys SELECT organization_id, id, key_hash, prefix, created_at, last_used_at, revoked_at FROM api_keys;

CREATE TABLE new_users (
  organization_id text NOT NULL,
  id              text NOT NULL,
  email           text NOT NULL,
  password_hash   text NOT NULL,
  created_at      timestamptz NOT NULL DEFAULT now()
);
INSERT INTO new_users SELECT organization_id, id, email, password_hash, created_at FROM users;

CREATE TABLE new_projects (
  organization_id text NOT NULL,
  id              text NOT NULL,
  name            text NOT NULL,
  created_at      timestamptz NOT NULL DEFAULT now()
);
INSERT INTO new_projects SELECT organization_id, id, name, created_at FROM projects;

CREATE TABLE new_categories (
  organization_id text NOT NULL,
  project_id      text NOT NULL,
  name            text NOT NULL,
  created_at      timestamptz NOT NULL DEFAULT now()
);
INSERT INTO new_categories
SELECT p.organization_id, c.project_id, c.name, c.created_at FROM categories c JOIN projects p ON p.id = c.project_id;

-- tags and metadata stay `json`, not `jsonb`: the text is kept exactly as sent
-- (docs/decisions/003-json-columns.md).
CREATE TABLE new_events (
  organization_id text NOT NULL,
  id              integer NOT NULL CHECK (id > 0),
  project_id      text NOT NULL,
  category        text NOT NULL,
  title           text NOT NULL,
  description     text,
  icon            text,
  tags            json,
  metadata        json,
  url             text,
  user_id         text,
  notify          boolean NOT NULL DEFAULT false,
  favorited       boolean NOT NULL DEFAULT false,
  created_at      timestamptz NOT NULL DEFAULT now()
);
INSERT INTO new_events
SELECT p.organization_id, e.id, e.project_id, e.category, e.title, e.description, e.icon, e.tags, e.metadata, e.url,
       e.user_id, e.notify, e.favorited, e.created_at
FROM events e JOIN projects p ON p.id = e.project_id;

-- Per-day, per-category counts kept with every event write (charts and category counts read
-- them). `day` is in the time zone recorded in settings under 'chart_time_zone'.
CREATE TABLE new_event_daily_counts (
  organization_id text NOT NULL,
  project_id      text NOT NULL,
  day             date NOT NULL,
  category        text NOT NULL,
  count           integer NOT NULL
);
INSERT INTO new_event_daily_counts
SELECT p.organization_id, d.project_id, d.day, d.category, d.count FROM event_daily_counts d JOIN projects p ON p.id = d.project_id;

CREATE TABLE new_insights (
  organization_id text NOT NULL,
  id              integer NOT NULL CHECK (id > 0),
  project_id      text NOT NULL,
  title           text NOT NULL,
  value           text NOT NULL,
  icon            text,
  updated_at      timestamptz NOT NULL DEFAULT now()
);
INSERT INTO new_insights
SELECT p.organization_id, i.id, i.project_id, i.title, i.value, i.icon, i.updated_at FROM insights i JOIN projects p ON p.id = i.project_id;

-- Notify events waiting to be fanned out, written in the event's own statement.
CREATE TABLE new_notify_outbox (
  organization_id text NOT NULL,
  event_id        integer NOT NULL,
  project_id      text NOT NULL,
  created_at      timestamptz NOT NULL DEFAULT now()
);
INSERT INTO new_notify_outbox
SELECT p.organization_id, o.event_id, o.project_id, o.created_at FROM notify_outbox o JOIN projects p ON p.id = o.project_id;

CREATE TABLE new_incoming_hooks (
  organization_id text NOT NULL,
  id              text NOT NULL,
  project_id      text NOT NULL,
  name            text NOT NULL,
  category        text NOT NULL,
  token_hash      bytea NOT NULL,
  token_sealed    text NOT NULL,
  enabled         boolean NOT NULL DEFAULT true,
  created_at      timestamptz NOT NULL DEFAULT now()
);
INSERT INTO new_incoming_hooks
SELECT p.organization_id, h.id, h.project_id, h.name, h.category, h.token_hash, h.token_sealed, h.enabled, h.created_at
FROM incoming_hooks h JOIN projects p ON p.id = h.project_id;

-- The cap is carried on the usage row (set by each capped write from the organization's own
-- row), so the check in the upsert needs no subquery on another table.
CREATE TABLE new_organization_usage (
  organization_id text NOT NULL,
  month           date NOT NULL,
  events          integer NOT NULL,
  cap             integer NOT NULL DEFAULT 2147483647
);
INSERT INTO new_organization_usage
SELECT u.organization_id, u.month, u.events, coalesce(o.monthly_event_cap, 2147483647)
FROM organization_usage u JOIN organizations o ON o.id = u.organization_id;

CREATE TABLE new_destinations (
  organization_id text NOT NULL,
  id              text NOT NULL,
  project_id      text NOT NULL,
  name            text NOT NULL,
  url             text NOT NULL,
  format          text NOT NULL CHECK (format IN ('json', 'text', 'embed')),
  enabled         boolean NOT NULL DEFAULT true,
  -- whsec_...: the HMAC key must be usable, so it cannot be hashed; only json destinations have one.
  secret          text,
  -- The attempt that last ended a delivery (lastStatus); all null before the first one.
  last_ok         boolean,
  last_at         timestamptz,
  last_status     integer,
  last_error      text,
  created_at      timestamptz NOT NULL DEFAULT now()
);
INSERT INTO new_destinations
SELECT p.organization_id, d.id, d.project_id, d.name, d.url, d.format, d.enabled, d.secret, d.last_ok, d.last_at,
       d.last_status, d.last_error, d.created_at
FROM destinations d JOIN projects p ON p.id = d.project_id;

-- event_id has no foreign key: the delivery log outlives a deleted event.
CREATE TABLE new_deliveries (
  organization_id text NOT NULL,
  id              text NOT NULL,
  destination_id  text NOT NULL,
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
INSERT INTO new_deliveries
SELECT p.organization_id, l.id, l.destination_id, l.event_id, l.webhook_id, l.body, l.status, l.attempts, l.max_attempts,
       l.next_attempt_at, l.locked_until, l.lease_token, l.created_at
FROM deliveries l JOIN destinations d ON d.id = l.destination_id JOIN projects p ON p.id = d.project_id;

CREATE TABLE new_delivery_attempts (
  organization_id text NOT NULL,
  delivery_id     text NOT NULL,
  attempt         integer NOT NULL,
  at              timestamptz NOT NULL,
  status          integer,
  duration_ms     integer,
  error           text,
  -- The first 1 KB of the receiver's answer, for the attempt log.
  response        text
);
INSERT INTO new_delivery_attempts
SELECT p.organization_id, a.delivery_id, a.attempt, a.at, a.status, a.duration_ms, a.error, a.response
FROM delivery_attempts a JOIN deliveries l ON l.id = a.delivery_id JOIN destinations d ON d.id = l.destination_id
JOIN projects p ON p.id = d.project_id;

CREATE TABLE new_push_subscriptions (
  organization_id text NOT NULL,
  id              text NOT NULL,
  project_id      text NOT NULL,
  user_id         text NOT NULL,
  endpoint        text NOT NULL,
  p256dh          text NOT NULL,
  auth            text NOT NULL,
  created_at      timestamptz NOT NULL DEFAULT now()
);
INSERT INTO new_push_subscriptions
SELECT p.organization_id, s.id, s.project_id, s.user_id, s.endpoint, s.p256dh, s.auth, s.created_at
FROM push_subscriptions s JOIN projects p ON p.id = s.project_id;

CREATE TABLE new_push_jobs (
  organization_id text NOT NULL,
  id              text NOT NULL,
  subscription_id text NOT NULL,
  event_id        integer NOT NULL,
  payload         text NOT NULL,
  attempts        integer NOT NULL DEFAULT 0,
  max_attempts    integer NOT NULL,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  locked_until    timestamptz,
  lease_token     text,
  created_at      timestamptz NOT NULL DEFAULT now()
);
INSERT INTO new_push_jobs
SELECT p.organization_id, j.id, j.subscription_id, j.event_id, j.payload, j.attempts, j.max_attempts, j.next_attempt_at,
       j.locked_until, j.lease_token, j.created_at
FROM push_jobs j JOIN push_subscriptions s ON s.id = j.subscription_id JOIN projects p ON p.id = s.project_id;

-- Dashboard sign-in sessions: only the cookie token's SHA-256 is kept.
CREATE TABLE new_sessions (
  organization_id text NOT NULL,
  id_hash         bytea NOT NULL,
  user_id         text NOT NULL,
  csrf_token      text NOT NULL,
  created_at      timestamptz NOT NULL DEFAULT now(),
  expires_at      timestamptz NOT NULL,
  last_seen_at    timestamptz NOT NULL DEFAULT now()
);
INSERT INTO new_sessions SELECT organization_id, id_hash, user_id, csrf_token, created_at, expires_at, last_seen_at FROM sessions;

-- ---- Replace the old tables ------------------------------------------------------------------

DROP TABLE push_jobs, push_subscriptions, sessions, delivery_attempts, deliveries, destinations, incoming_hooks,
  notify_outbox, insights, event_daily_counts, events, categories, organization_usage, api_keys, users, projects;

ALTER TABLE new_api_keys RENAME TO api_keys;
ALTER TABLE new_users RENAME TO users;
ALTER TABLE new_projects RENAME TO projects;
ALTER TABLE new_categories RENAME TO categories;
ALTER TABLE new_events RENAME TO events;
ALTER TABLE new_event_daily_counts RENAME TO event_daily_counts;
ALTER TABLE new_insights RENAME TO insights;
ALTER TABLE new_notify_outbox RENAME TO notify_outbox;
ALTER TABLE new_incoming_hooks RENAME TO incoming_hooks;
ALTER TABLE new_organization_usage RENAME TO organization_usage;
ALTER TABLE new_destinations RENAME TO destinations;
ALTER TABLE new_deliveries RENAME TO deliveries;
ALTER TABLE new_delivery_attempts RENAME TO delivery_attempts;
ALTER TABLE new_push_subscriptions RENAME TO push_subscriptions;
ALTER TABLE new_push_jobs RENAME TO push_jobs;
ALTER TABLE new_sessions RENAME TO sessions;

-- ---- Keys: organization_id first in every primary key and unique constraint -----------------

ALTER TABLE api_keys ADD PRIMARY KEY (organization_id, id), ADD UNIQUE (organization_id, key_hash);
ALTER TABLE users ADD PRIMARY KEY (organization_id, id);
ALTER TABLE projects ADD PRIMARY KEY (organization_id, id);
ALTER TABLE categories ADD PRIMARY KEY (organization_id, project_id, name);
ALTER TABLE events ADD PRIMARY KEY (organization_id, id);
ALTER TABLE event_daily_counts ADD PRIMARY KEY (organization_id, project_id, day, category);
ALTER TABLE insights ADD PRIMARY KEY (organization_id, id), ADD UNIQUE (organization_id, project_id, title);
ALTER TABLE notify_outbox ADD PRIMARY KEY (organization_id, event_id);
ALTER TABLE incoming_hooks ADD PRIMARY KEY (organization_id, id), ADD UNIQUE (organization_id, token_hash);
ALTER TABLE organization_usage ADD PRIMARY KEY (organization_id, month);
ALTER TABLE destinations ADD PRIMARY KEY (organization_id, id);
ALTER TABLE deliveries ADD PRIMARY KEY (organization_id, id);
ALTER TABLE delivery_attempts ADD PRIMARY KEY (organization_id, delivery_id, attempt);
ALTER TABLE push_subscriptions ADD PRIMARY KEY (organization_id, id), ADD UNIQUE (organization_id, project_id, endpoint);
ALTER TABLE push_jobs ADD PRIMARY KEY (organization_id, id);
ALTER TABLE sessions ADD PRIMARY KEY (organization_id, id_hash);

-- ---- Foreign keys, composite on organization_id ---------------------------------------------

ALTER TABLE api_keys ADD FOREIGN KEY (organization_id) REFERENCES organizations (id) ON DELETE CASCADE;
ALTER TABLE users ADD FOREIGN KEY (organization_id) REFERENCES organizations (id) ON DELETE CASCADE;
ALTER TABLE projects ADD FOREIGN KEY (organization_id) REFERENCES organizations (id) ON DELETE CASCADE;
ALTER TABLE organization_usage ADD FOREIGN KEY (organization_id) REFERENCES organizations (id) ON DELETE CASCADE;
ALTER TABLE categories ADD FOREIGN KEY (organization_id, project_id) REFERENCES projects (organization_id, id) ON DELETE CASCADE;
ALTER TABLE events ADD FOREIGN KEY (organization_id, project_id) REFERENCES projects (organization_id, id) ON DELETE CASCADE;
ALTER TABLE event_daily_counts ADD FOREIGN KEY (organization_id, project_id) REFERENCES projects (organization_id, id) ON DELETE CASCADE;
ALTER TABLE insights ADD FOREIGN KEY (organization_id, project_id) REFERENCES projects (organization_id, id) ON DELETE CASCADE;
ALTER TABLE notify_outbox ADD FOREIGN KEY (organization_id, event_id) REFERENCES events (organization_id, id) ON DELETE CASCADE;
ALTER TABLE incoming_hooks ADD FOREIGN KEY (organization_id, project_id) REFERENCES projects (organization_id, id) ON DELETE CASCADE;
ALTER TABLE destinations ADD FOREIGN KEY (organization_id, project_id) REFERENCES projects (organization_id, id) ON DELETE CASCADE;
ALTER TABLE deliveries ADD FOREIGN KEY (organization_id, destination_id) REFERENCES destinations (organization_id, id) ON DELETE CASCADE;
ALTER TABLE delivery_attempts ADD FOREIGN KEY (organization_id, delivery_id) REFERENCES deliveries (organization_id, id) ON DELETE CASCADE;
ALTER TABLE push_subscriptions ADD FOREIGN KEY (organization_id, project_id) REFERENCES projects (organization_id, id) ON DELETE CASCADE;
ALTER TABLE push_subscriptions ADD FOREIGN KEY (organization_id, user_id) REFERENCES users (organization_id, id) ON DELETE CASCADE;
ALTER TABLE push_jobs ADD FOREIGN KEY (organization_id, subscription_id) REFERENCES push_subscriptions (organization_id, id) ON DELETE CASCADE;
ALTER TABLE sessions ADD FOREIGN KEY (organization_id, user_id) REFERENCES users (organization_id, id) ON DELETE CASCADE;

-- ---- Secondary indexes -------------------------------------------------------------------------
-- Project ids are random, so (project_id, ...) is as selective as (organization_id, project_id,
-- ...) and keeps every index entry of the hottest table 17 bytes shorter; every query still
-- filters by organization_id, and on a distributed engine the shard already holds one
-- organization's rows together.

CREATE INDEX api_keys_org ON api_keys (organization_id, created_at);
CREATE INDEX projects_org ON projects (organization_id, created_at, id);
CREATE INDEX events_feed ON events (project_id, created_at DESC, id DESC);
CREATE INDEX events_feed_category ON events (project_id, category, created_at DESC, id DESC);
-- Charts read a project's day counts by category (docs/decisions/031-chart-index.md).
CREATE INDEX event_daily_counts_by_category ON event_daily_counts (project_id, category, day);
CREATE INDEX incoming_hooks_project ON incoming_hooks (project_id, created_at, id);
CREATE INDEX destinations_project ON destinations (project_id, created_at, id);
CREATE INDEX deliveries_due ON deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX deliveries_log ON deliveries (destination_id, created_at DESC, id DESC);
CREATE INDEX push_subscriptions_endpoint ON push_subscriptions (endpoint);
CREATE INDEX push_jobs_due ON push_jobs (next_attempt_at);
CREATE INDEX sessions_user ON sessions (organization_id, user_id);
CREATE INDEX sessions_expires ON sessions (expires_at);
CREATE INDEX notify_outbox_order ON notify_outbox (created_at);

-- The search index (002_search.sql), rebuilt over the new table when pg_trgm is there. The
-- expression must stay identical to `searchDocument` in src/features/events/queries.ts.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN
    EXECUTE $i$
      CREATE INDEX events_search ON events USING gin (
        (title || E'\x1f' || coalesce(description, '') || E'\x1f' || coalesce(tags::text, '')) gin_trgm_ops
      )
    $i$;
  END IF;
END
$$;

-- ---- Ids per organization ----------------------------------------------------------------------
-- The last id handed out per organization and kind ('event', 'insight'). A write that needs n
-- new ids adds n to its row in its own statement; the row lock orders concurrent writers of one
-- organization and nobody else.
CREATE TABLE id_counters (
  organization_id text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  kind            text NOT NULL CHECK (kind IN ('event', 'insight')),
  last_id         bigint NOT NULL CHECK (last_id >= 0),
  PRIMARY KEY (organization_id, kind)
);
-- Deliveries and push jobs keep the id of an event deleted since (the log outlives the event);
-- the counter starts after those too, so such an id never comes back as another event's.
INSERT INTO id_counters (organization_id, kind, last_id)
SELECT organization_id, 'event', max(id) FROM (
  SELECT organization_id, id FROM events
  UNION ALL SELECT organization_id, event_id FROM deliveries
  UNION ALL SELECT organization_id, event_id FROM push_jobs
) used
GROUP BY organization_id;
INSERT INTO id_counters (organization_id, kind, last_id)
SELECT organization_id, 'insight', max(id) FROM insights GROUP BY organization_id;

-- ---- Installation-wide lookups ----------------------------------------------------------------
-- A bearer key, a hook token or a session cookie arrives without its organization: its SHA-256
-- finds the organization here, then the tenant table is read with both. Keyed by the hash, so a
-- distributed engine routes the lookup to one node (docs/scaling.md).
CREATE TABLE credentials (
  hash            bytea PRIMARY KEY,
  kind            text NOT NULL CHECK (kind IN ('api_key', 'hook', 'session')),
  organization_id text NOT NULL
);
INSERT INTO credentials (hash, kind, organization_id) SELECT key_hash, 'api_key', organization_id FROM api_keys;
INSERT INTO credentials (hash, kind, organization_id) SELECT token_hash, 'hook', organization_id FROM incoming_hooks;
INSERT INTO credentials (hash, kind, organization_id) SELECT id_hash, 'session', organization_id FROM sessions;

-- Sign-in emails are unique across the installation (one account, one organization).
CREATE TABLE user_emails (
  email           text PRIMARY KEY CHECK (email = lower(email)),
  organization_id text NOT NULL,
  user_id         text NOT NULL
);
INSERT INTO user_emails (email, organization_id, user_id) SELECT lower(email), organization_id, id FROM users;
