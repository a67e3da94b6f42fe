-- The audit log (extensions.md, "Audit log"): who did what, when, from where.
--
-- Entries are written by the statement's own transaction, so an entry never exists without its
-- action and a failed action leaves none. No route changes or deletes them; the pruner removes
-- entries older than 365 days. There is no foreign key to projects or members on purpose: an
-- entry outlives the project or the person it names. `actor_kind` is null when nobody is known
-- (a failed sign-in); `actor_label` is the email or the key's name or prefix at the time.
CREATE TABLE audit_entries (
  organization_id text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  id              text NOT NULL,
  at              timestamptz NOT NULL DEFAULT now(),
  actor_kind      text CHECK (actor_kind IN ('user', 'key', 'operator')),
  actor_id        text,
  actor_label     text,
  action          text NOT NULL,
  target_type     text,
  target_id       text,
  ip              text,
  PRIMARY KEY (organization_id, id)
);
-- The listing: newest first, keyset pages within one organization.
CREATE INDEX audit_entries_feed ON audit_entries (organization_id, at DESC, id DESC);
-- The pruner's hourly pass finds expired entries of every organization without scanning the rest.
CREATE INDEX audit_entries_age ON audit_entries (at);
