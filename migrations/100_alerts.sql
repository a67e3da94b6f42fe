-- Alerts (extensions.md, "Alerts"; docs/decisions/100-alert-engine.md): rules that watch a
-- project's events, their history of transitions, and one small row per organization that the
-- evaluation engine (src/features/alerts/alertEngine.ts) leases while it evaluates that
-- organization's alerts.

CREATE TABLE alerts (
  organization_id text NOT NULL,
  id text NOT NULL,
  project_id text NOT NULL,
  name text NOT NULL,
  -- {category?, tags?, user_id?, search?} as the API took it; {} counts every event of the project.
  filter jsonb NOT NULL,
  count_mode text NOT NULL CHECK (count_mode IN ('atLeast', 'fewerThan')),
  threshold integer NOT NULL CHECK (threshold BETWEEN 1 AND 1000000),
  window_seconds integer NOT NULL CHECK (window_seconds BETWEEN 10 AND 31536000),
  -- The category of the events the alert creates.
  category text NOT NULL,
  renotify_seconds integer CHECK (renotify_seconds BETWEEN 60 AND 604800),
  enabled boolean NOT NULL,
  muted_until timestamptz,
  state text NOT NULL CHECK (state IN ('ok', 'firing')),
  state_since timestamptz NOT NULL,
  -- Matching events the last evaluation saw; NULL before the first.
  count integer,
  -- The window never reaches back before this: creation, enabling, or a change of filter or condition.
  window_start timestamptz NOT NULL,
  -- Bumped by every change of definition, state or notification: the compare-and-set that makes
  -- each transition (and its event) happen once, whichever process evaluates.
  revision integer NOT NULL DEFAULT 1,
  -- The last firing event (or the transition to firing while muted): renotifySeconds counts from it.
  notified_at timestamptz,
  -- When the engine must look at this alert again even if no event arrives: a window sliding past
  -- its threshold, a dead man's deadline, a renotify, or a change just made (NULL: only new events).
  next_due_at timestamptz,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (organization_id, id),
  FOREIGN KEY (organization_id, project_id) REFERENCES projects (organization_id, id) ON DELETE CASCADE
);

CREATE INDEX alerts_project ON alerts (organization_id, project_id, created_at, id);

-- One row per change of state, in order per alert by seq (the revision the transition moved the
-- alert to: increasing, with gaps); email digests read it too.
CREATE TABLE alert_transitions (
  organization_id text NOT NULL,
  alert_id text NOT NULL,
  seq integer NOT NULL,
  state text NOT NULL CHECK (state IN ('ok', 'firing')),
  at timestamptz NOT NULL,
  count integer NOT NULL,
  -- The event the transition created; NULL while muted. No foreign key: retention may prune it.
  event_id integer,
  PRIMARY KEY (organization_id, alert_id, seq),
  FOREIGN KEY (organization_id, alert_id) REFERENCES alerts (organization_id, id) ON DELETE CASCADE
);

-- What the engine needs to know of an organization without reading its alerts: whether it has
-- enabled alerts at all, the event id up to which it has looked, when a window next slides past
-- a threshold (or a renotify or a dead man's deadline is due), and who holds it now.
CREATE TABLE alert_schedules (
  organization_id text PRIMARY KEY REFERENCES organizations (id) ON DELETE CASCADE,
  active boolean NOT NULL,
  seen_event_id integer NOT NULL DEFAULT 0,
  due_at timestamptz,
  leased_until timestamptz,
  lease_token text
);

CREATE INDEX alert_schedules_active ON alert_schedules (due_at) WHERE active;

-- Events an alert created (its transitions and renotifications) carry the alert's id, so that no
-- alert ever counts them; NULL for every other event. Adding a nullable column without a
-- default rewrites nothing.
ALTER TABLE events ADD COLUMN alert_id text;
