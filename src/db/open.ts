import type { Config } from '../config.ts';
import { type Sql, createClient } from './client.ts';
import { type Supervision, attachToRunningCluster, startEmbeddedCluster } from './embedded.ts';
import { migrate } from './migrate.ts';

interface OpenDatabase {
  sql: Sql;
  url: string;
  close(): Promise<void>;
  /** Asks the embedded PostgreSQL this process started to shut down, without waiting (nothing for DATABASE_URL). */
  signalStop(): void;
}

interface OpenOptions {
  log?: (message: string) => void;
  /** Commands beside a running server use its cluster; the server always owns one. */
  attach?: boolean;
  poolSize?: number;
  /** PostgreSQL's own output (chatty; the server logs it at debug level). */
  clusterLog?: (message: string) => void;
  /** False for a restore, which checks the store is empty and then builds its backup's schema. */
  migrate?: boolean;
  /** The server restarts an embedded PostgreSQL that dies under it (embedded.ts). */
  supervise?: Supervision;
  /** A stop asked for while PostgreSQL starts: the half-started one is shut down and the open fails. */
  abort?: AbortSignal;
}

/**
 * DATABASE_URL when set; otherwise the embedded cluster in DATA_DIR — the running server's if
 * `attach` and one is up, else one started now and stopped by close(). Migrations run here.
 */
export async function openDatabase(config: Config, options: OpenOptions = {}): Promise<OpenDatabase> {
  const log = options.log ?? (() => {});
  let url = config.databaseUrl;
  let stopCluster: (() => Promise<void>) | undefined;
  let signalStop = () => {};
  if (!url && options.attach) url = (await attachToRunningCluster(config.dataDir)) ?? undefined;
  if (!url) {
    const cluster = await startEmbeddedCluster(config.dataDir, options.clusterLog ?? log, {
      role: options.attach ? 'command' : 'server',
      supervise: options.supervise,
      avoidPort: config.port,
      abort: options.abort,
    });
    url = cluster.url;
    stopCluster = cluster.stop;
    signalStop = cluster.signalStop;
  }
  const sql = createClient(url, { max: options.poolSize, timeZone: config.timeZone });
  try {
    if (options.migrate !== false) await migrate(sql, log);
  } catch (error) {
    await sql.end({ timeout: 5 });
    await stopCluster?.();
    throw error;
  }
  return {
    sql,
    url,
    close: async () => {
      await sql.end({ timeout: 5 });
      await stopCluster?.();
    },
    signalStop: () => signalStop(),
  };
}
