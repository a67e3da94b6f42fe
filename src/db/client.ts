import postgres from 'postgres';

export type Sql = postgres.Sql;
export type TransactionSql = postgres.TransactionSql;

export interface ClientOptions {
  /** Pool size. */
  max?: number;
  /** IANA zone for this session's `date` arithmetic (chart day buckets). */
  timeZone?: string;
}

/**
 * One pool per process. Pipelining is kept shallow: under sustained load the driver's deep
 * pipeline queue was measured to slow down steadily (architecture.md). It is 1, not 0: in
 * postgres 3.4.9 a value of 0 skips the hook that reserves a connection for `sql.begin`, and
 * every transaction then fails with UNSAFE_TRANSACTION (docs/decisions/002-driver-pipeline.md).
 */
export function createClient(url: string, options: ClientOptions = {}): Sql {
  return postgres(url, {
    max: options.max ?? 10,
    max_pipeline: 1,
    idle_timeout: 30,
    connect_timeout: 10,
    onnotice: () => {},
    connection: {
      application_name: 'eventlog',
      ...(options.timeZone ? { TimeZone: options.timeZone } : {}),
    },
    transform: { undefined: null },
  } as postgres.Options<Record<string, postgres.PostgresType>>);
}
