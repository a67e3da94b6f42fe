-- The people of an application (extensions.md "Users"), feed filters served by indexes, and a
-- retention period per project.

-- Events whose createdAt is older than retention_days x 24 h are pruned in the background
-- (src/features/retention/). NULL keeps events forever.
ALTER TABLE projects ADD COLUMN retention_days integer CHECK (retention_days BETWEEN 1 AND 36500);

-- One row per user_id seen in a project, kept with every event write, delete and prune (the
-- counts and first/last event times) and by identify (properties, identify times). `user_id`
-- is the application's identifier, not a dashboard account (those are `users`).
CREATE TABLE app_users (
  organization_id   text NOT NULL,
  project_id        text NOT NULL,
  user_id           text NOT NULL,
  -- `json`, not `jsonb`: the keys keep the order they were first sent in.
  properties        json NOT NULL DEFAULT '{}',
  event_count       integer NOT NULL DEFAULT 0 CHECK (event_count >= 0),
  first_event_at    timestamptz,
  last_event_at     timestamptz,
  first_identify_at timestamptz,
  last_identify_at  timestamptz,
  -- The list's order (lastSeen descending, users never seen last) as one indexable column.
  seen_order        timestamptz NOT NULL GENERATED ALWAYS AS (
                      coalesce(greatest(last_event_at, last_identify_at), '-infinity'::timestamptz)) STORED,
  PRIMARY KEY (organization_id, project_id, user_id),
  FOREIGN KEY (organization_id, project_id) REFERENCES projects (organization_id, id) ON DELETE CASCADE
);
CREATE INDEX app_users_recent ON app_users (organization_id, project_id, seen_order DESC, user_id DESC);

-- Users of the events stored so far.
INSERT INTO app_users (organization_id, project_id, user_id, event_count, first_event_at, last_event_at)
SELECT organization_id, project_id, user_id, count(*), min(created_at), max(created_at)
FROM events WHERE user_id IS NOT NULL AND char_length(user_id) <= 255
GROUP BY 1, 2, 3;

-- A user's journey, and the exact first/last event time after a delete or a prune.
CREATE INDEX events_journey ON events (project_id, user_id, created_at DESC, id DESC) WHERE user_id IS NOT NULL;
-- Favorites only.
CREATE INDEX events_favorites ON events (project_id, created_at DESC, id DESC) WHERE favorited;
-- `tag=key:value`: containment on the tags as jsonb (they stay `json`, decision 003). The
-- expression must stay identical to the one `tagFilter` in src/features/events/queries.ts writes.
CREATE INDEX events_tags ON events USING gin ((tags::jsonb) jsonb_path_ops);
