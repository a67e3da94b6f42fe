-- The users list's other orders (GET /api/users?sort=): first seen, newest first, and most
-- events first, each read along an index in keyset order like app_users_recent (last seen).
-- One statement per index: Citus forwards CREATE INDEX to its workers as sent (decision 095).

-- The expression must stay identical to `firstSeenOrder` in src/features/profiles/queries.ts.
CREATE INDEX app_users_first_seen ON app_users (
  organization_id, project_id, (coalesce(least(first_event_at, first_identify_at), '-infinity'::timestamptz)) DESC, user_id DESC);

CREATE INDEX app_users_most_events ON app_users (organization_id, project_id, event_count DESC, user_id DESC);
