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

/** The error says the database could not be reached or went away, whatever the query was. */
export function isDatabaseUnavailable(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && UNAVAILABLE_CODES.has(code);
}

/**
 * The error says the query's connection is gone (so is any transaction it had open). A statement
 * timeout (57014) is not: the connection lives on, inside its transaction.
 */
export function isConnectionLost(error: unknown): boolean {
  return isDatabaseUnavailable(error) && (error as { code: string }).code !== '57014';
}
