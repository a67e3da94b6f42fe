-- Notification preferences (extensions.md, "Notification preferences"): what each member's push
-- subscriptions and address receive. A member without a row follows the defaults (every project
-- "all", no email copy, never quiet).
CREATE TABLE notification_preferences (
  organization_id text NOT NULL,
  user_id         text NOT NULL,
  -- project id -> 'all' | 'alerts' | 'none'; a project not listed is 'all'.
  projects        jsonb NOT NULL DEFAULT '{}',
  email           boolean NOT NULL DEFAULT false,
  -- null or {"timeZone", "start", "end", "days"}; evaluated with Intl in the zone, in the server.
  quiet_hours     jsonb,
  snoozed_until   timestamptz,
  updated_at      timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, user_id),
  FOREIGN KEY (organization_id, user_id) REFERENCES users (organization_id, id) ON DELETE CASCADE
);

-- Notifications held for a member during quiet hours or a snooze, until one summary per medium
-- releases them (decision 205). Released rows stay a while so the member's digest can list them.
CREATE TABLE held_notifications (
  organization_id text NOT NULL,
  user_id         text NOT NULL,
  id              text NOT NULL,
  project_id      text NOT NULL,
  event_id        integer NOT NULL,
  title           text NOT NULL,
  held_at         timestamptz NOT NULL DEFAULT now(),
  released_at     timestamptz,
  PRIMARY KEY (organization_id, user_id, id),
  FOREIGN KEY (organization_id, user_id) REFERENCES users (organization_id, id) ON DELETE CASCADE
);
-- The summary loop's one look for members with something held.
CREATE INDEX held_notifications_pending ON held_notifications (organization_id, user_id) WHERE released_at IS NULL;
CREATE INDEX held_notifications_released ON held_notifications (released_at) WHERE released_at IS NOT NULL;

-- A critical alert's events reach members during quiet hours and snoozes.
ALTER TABLE alerts ADD COLUMN critical boolean NOT NULL DEFAULT false;
