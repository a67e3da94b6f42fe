/** Announced when an API key is revoked: every process evicts the key and closes its live streams. */
export const KEY_REVOKED = 'key.revoked';
