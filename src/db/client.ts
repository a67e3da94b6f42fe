import net from 'node:net';
import postgres from 'postgres';

export type Sql = postgres.Sql;
export type TransactionSql = postgres.TransactionSql;
/** Where a query may run: the pool, or a transaction the caller opened. */
export type Db = Sql | TransactionSql;

interface ClientOptions {
  /** Pool size. */
  max?: number;
  /** IANA zone for this session's `date` arithmetic (chart day buckets). */
  timeZone?: string;
  /** PostgreSQL's `statement_timeout` for every statement of the pool (the request pool's bound). */
  statementTimeoutMs?: number;
  /** Told of every statement sent, with its parameters: the Citus plan test reads them. */
  onQuery?: (query: string, parameters: unknown[]) => void;
}

/**
 * One pool per process. `max_pipeline` stays at the driver's default on purpose: with 0 or 1,
 * postgres 3.4.9 can pipeline a `sql.begin` BEGIN behind another query without reserving the
 * connection; the BEGIN fails with UNSAFE_TRANSACTION but still opens a transaction in which
 * later autocommit writes run and are lost when it rolls back. bench/probes/transactionSafety.ts
 * shows it (docs/decisions/030-driver-pipelining.md).
 */
export function createClient(url: string, options: ClientOptions = {}): Sql {
  return postgres(url, {
    max: options.max ?? 10,
    idle_timeout: 30,
    // Short enough that a request never waits long for a database that does not answer; while it
    // is down the health gate (db/health.ts) refuses requests before they try to connect at all.
    connect_timeout: 5,
    // The driver waits before reconnecting a connection that failed, longer after every failure
    // in a row anywhere in the pool (its default grows to 20 s). After an outage of a few seconds
    // that wait would hold the first requests after recovery for up to 20 s; the health gate
    // already keeps requests away while the database is down, so the wait can stay short.
    backoff: reconnectDelaySeconds,
    onnotice: () => {},
    connection: {
      application_name: 'eventlog',
      // `date::text` is then always YYYY-MM-DD (charts), whatever the server's default.
      DateStyle: 'ISO, YMD',
      ...(options.timeZone ? { TimeZone: options.timeZone } : {}),
      ...(options.statementTimeoutMs ? { statement_timeout: String(options.statementTimeoutMs) } : {}),
    },
    transform: { undefined: null },
    socket: socketWithoutDelay(),
    ...(options.onQuery ? { debug: (_connection: number, query: string, parameters: unknown[]) => options.onQuery!(query, parameters) } : {}),
  } as postgres.Options<Record<string, postgres.PostgresType>>);
}

/** What the driver hands a socket factory: its parsed connection options. */
interface DriverOptions {
  host: string[];
  port: number[];
  path?: string | false;
}

/**
 * The driver's own connect, with Nagle's algorithm off. postgres 3.4.9 leaves it on, so a small
 * message written right after a large one waits for the large one's acknowledgement, which
 * PostgreSQL delays by up to 40 ms: each COPY's CopyDone after its rows did, and a 100-chunk
 * import spent 4 s waiting (decision 093). The socket is handed back unconnected: the driver's
 * first writes wait in it, and its error, close and timeout handling sees the connect as its own.
 */
function socketWithoutDelay(): (options: DriverOptions) => net.Socket {
  let next = 0;
  return (options) => {
    const socket = new net.Socket();
    socket.setNoDelay(true);
    // The driver hears a socket's errors through its own listener while the connection lives; a
    // reset that arrives after it let go of the socket (PostgreSQL killed mid-query) would
    // otherwise be thrown into the event loop and end the process (test/storage/stopWhileRestarting.test.ts).
    socket.on('error', () => {});
    if (options.path) return socket.connect(options.path);
    // Several hosts are tried in turn, as the driver does.
    const index = next++ % options.port.length;
    return Object.assign(socket.connect(options.port[index]!, options.host[index]!), { host: options.host[index], port: options.port[index] });
  };
}

/** 50 ms, doubling with each failed connection attempt in a row, at most half a second. */
function reconnectDelaySeconds(failuresInARow: number): number {
  return Math.min(0.05 * 2 ** Math.max(0, failuresInARow - 1), 0.5);
}

function inTransaction(db: Db): db is TransactionSql {
  return 'savepoint' in db;
}

/**
 * Runs `work` in a transaction: the caller's own when `db` already is one (so verbs compose into
 * one all-or-nothing write), a new one otherwise. The one way code here opens a transaction; no
 * hand-written BEGIN.
 */
export function withTransaction<T>(db: Db, work: (tx: TransactionSql) => Promise<T>, options?: string): Promise<T> {
  if (inTransaction(db)) return work(db);
  return (options ? db.begin(options, work) : db.begin(work)) as Promise<T>;
}

/**
 * Lifts the request pool's statement time limit for the rest of a transaction: for work whose
 * length grows with what the organization holds by design (an import, an export), not with what a
 * request asks for.
 */
export async function withoutStatementTimeout(tx: TransactionSql): Promise<void> {
  await tx`SET LOCAL statement_timeout = 0`;
}
