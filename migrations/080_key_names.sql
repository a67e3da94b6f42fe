-- A name for an API key ("CI", "billing worker"), so an owner can tell keys apart before
-- revoking one. Keys made before names existed, and keys made without one, have none.
ALTER TABLE api_keys ADD COLUMN name text;
