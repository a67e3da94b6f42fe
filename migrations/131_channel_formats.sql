-- Channels (extensions.md, "Channels"): a destination's format may name a service. The URL of
-- such a destination holds the service's credentials; replies mask them (decision 177).
ALTER TABLE destinations DROP CONSTRAINT IF EXISTS destinations_format_check;
ALTER TABLE destinations ADD CONSTRAINT destinations_format_check
  CHECK (format IN ('json', 'text', 'embed', 'email', 'telegram', 'ntfy', 'pushover', 'teams', 'googlechat', 'matrix', 'gotify'));
