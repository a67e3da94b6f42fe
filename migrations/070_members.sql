-- Members and invitations (extensions.md, "Dashboard members").
--
-- Every dashboard user gets a role. Users made before roles existed could do everything, and
-- `eventlog user create` keeps making owners, so the default is 'owner'.
ALTER TABLE users ADD COLUMN role text NOT NULL DEFAULT 'owner' CHECK (role IN ('owner', 'member'));

-- An invitation link carries 256 random bits; only their SHA-256 is kept (like sessions), so a
-- copy of this table cannot be turned into links. One pending invitation per email and
-- organization: a new one replaces it. An accepted invitation is deleted with the insert of its
-- user, so a used token is simply not found.
CREATE TABLE invitations (
  organization_id text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  id              text NOT NULL,
  email           text NOT NULL,
  role            text NOT NULL CHECK (role IN ('owner', 'member')),
  token_hash      bytea NOT NULL,
  invited_by      text,
  created_at      timestamptz NOT NULL DEFAULT now(),
  expires_at      timestamptz NOT NULL,
  PRIMARY KEY (organization_id, id)
);
CREATE UNIQUE INDEX invitations_email ON invitations (organization_id, lower(email));

-- The accept page's token arrives without its organization: it is routed through `credentials`
-- like every other secret (migrations/040_tenant_keys.sql).
ALTER TABLE credentials DROP CONSTRAINT credentials_kind_check;
ALTER TABLE credentials ADD CONSTRAINT credentials_kind_check CHECK (kind IN ('api_key', 'hook', 'session', 'invitation'));
