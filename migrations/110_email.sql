-- Email (extensions.md, "Email"): email destinations, password resets and digests.

-- An email destination is a destination whose url is mailto: and whose format is 'email'. The
-- check was created with the table's temporary name in 040_tenant_keys.sql.
ALTER TABLE destinations DROP CONSTRAINT IF EXISTS new_destinations_format_check;
ALTER TABLE destinations DROP CONSTRAINT IF EXISTS destinations_format_check;
ALTER TABLE destinations ADD CONSTRAINT destinations_format_check CHECK (format IN ('json', 'text', 'embed', 'email'));

-- A password reset link carries 256 random bits; only their SHA-256 is kept, one pending link per
-- member (a newer one replaces it), deleted when used. The token arrives without its organization
-- and is routed through `credentials`, like an invitation's.
ALTER TABLE credentials DROP CONSTRAINT credentials_kind_check;
ALTER TABLE credentials ADD CONSTRAINT credentials_kind_check
  CHECK (kind IN ('api_key', 'hook', 'session', 'invitation', 'password_reset'));

CREATE TABLE password_resets (
  organization_id text NOT NULL,
  user_id         text NOT NULL,
  token_hash      bytea NOT NULL,
  created_at      timestamptz NOT NULL DEFAULT now(),
  expires_at      timestamptz NOT NULL,
  PRIMARY KEY (organization_id, user_id),
  FOREIGN KEY (organization_id, user_id) REFERENCES users (organization_id, id) ON DELETE CASCADE
);

-- A member's digest. next_due_at is the next moment a digest is owed (NULL when off): whichever
-- process moves it forward with a compare-and-set UPDATE enqueues the digest in that
-- transaction, so each period's digest is enqueued once however many processes look.
CREATE TABLE digest_settings (
  organization_id text NOT NULL,
  user_id         text NOT NULL,
  frequency       text NOT NULL CHECK (frequency IN ('daily', 'weekly', 'off')),
  hour            smallint NOT NULL CHECK (hour BETWEEN 0 AND 23),
  time_zone       text NOT NULL,
  next_due_at     timestamptz,
  updated_at      timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, user_id),
  FOREIGN KEY (organization_id, user_id) REFERENCES users (organization_id, id) ON DELETE CASCADE
);
CREATE INDEX digest_settings_due ON digest_settings (next_due_at) WHERE next_due_at IS NOT NULL;

-- Mail waiting to be sent (digests): leased like deliveries (locked_until, lease_token), deleted
-- once sent or given up.
CREATE TABLE mail_jobs (
  organization_id text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  id              text NOT NULL,
  kind            text NOT NULL,
  recipients      text[] NOT NULL,
  subject         text NOT NULL,
  text_body       text NOT NULL,
  html_body       text NOT NULL,
  attempts        integer NOT NULL DEFAULT 0,
  max_attempts    integer NOT NULL,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  locked_until    timestamptz,
  lease_token     text,
  created_at      timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, id)
);
CREATE INDEX mail_jobs_due ON mail_jobs (next_attempt_at);
