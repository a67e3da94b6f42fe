/** Error codes (driver and PostgreSQL) that mean "the database is not there", not "the query is wrong". */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  'CONNECT_TIMEOUT',
  // admin_shutdown, crash_shutdown, cannot_connect_now, connection exceptions, query_canceled.
  '57P01',
  '57P02',
  '57P03',
  '08000',
  '08001',
  '08003',
  '08006',
  '57014',
]);

function hasCodeIn(error: unknown, codes: Set<string>): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && codes.has(code);
}

/** The error says the database could not be reached or went away, whatever the query was. */
export function isDatabaseUnavailable(error: unknown): boolean {
  return hasCodeIn(error, UNAVAILABLE_CODES);
}

/**
 * Codes that say no new connection can be made now (not that one connection broke): a connect
 * that timed out or was refused, or PostgreSQL shutting down or starting up.
 */
const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'CONNECT_TIMEOUT', '57P01', '57P02', '57P03']);

/** The error says a new connection would fail too, whatever the query was. */
export function isDatabaseUnreachable(error: unknown): boolean {
  return hasCodeIn(error, UNREACHABLE_CODES);
}
