-- Groups (accounts) of an application's users (extensions.md "Groups (accounts)"),
-- src/features/groups/. A group's users count and last seen time are not stored: they are read
-- from its memberships and the members' app_users rows (decision 190), so ingest does no work
-- for groups.

CREATE TABLE app_groups (
  organization_id text NOT NULL,
  project_id      text NOT NULL,
  group_id        text NOT NULL,
  -- `json`, not `jsonb`: the keys keep the order they were first sent in, as a user's do.
  properties      json NOT NULL DEFAULT '{}',
  first_seen_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, project_id, group_id),
  FOREIGN KEY (organization_id, project_id) REFERENCES projects (organization_id, id) ON DELETE CASCADE
);

-- A user's membership of a group. Removing the group or the user removes it.
CREATE TABLE app_group_members (
  organization_id text NOT NULL,
  project_id      text NOT NULL,
  group_id        text NOT NULL,
  user_id         text NOT NULL,
  joined_at       timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, project_id, group_id, user_id),
  FOREIGN KEY (organization_id, project_id, group_id) REFERENCES app_groups (organization_id, project_id, group_id) ON DELETE CASCADE,
  FOREIGN KEY (organization_id, project_id, user_id) REFERENCES app_users (organization_id, project_id, user_id) ON DELETE CASCADE
);

-- A user's groups (the user page), and the cascade from app_users.
CREATE INDEX app_group_members_by_user ON app_group_members (organization_id, project_id, user_id);
