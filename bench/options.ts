import { parseArgs } from 'node:util';

export const SECTIONS = ['ingest', 'feed', 'search', 'charts', 'transfer', 'import', 'filters', 'analytics', 'alerts', 'preferences'] as const;
export type Section = (typeof SECTIONS)[number];

export const STORES = ['embedded', 'external', 'citus'] as const;
export type Store = (typeof STORES)[number];

export const INGEST_TARGETS = ['ceiling', 'api', 'hook', 'batch'] as const;
export type IngestTarget = (typeof INGEST_TARGETS)[number];

export interface BenchOptions {
  events: number;
  quick: boolean;
  json: boolean;
  /** Runs per figure; the median is reported. */
  runs: number;
  /** Seconds per ingest run. */
  ingestSeconds: number;
  ingestConnections: number;
  /**
   * Requests per second across the ingest connections, or null for as many as the server takes.
   * A fixed rate lets runs that change the server be compared at the same load (decision 160).
   */
  ingestRate: number | null;
  /** Seconds per read run (feed, search, charts). */
  readSeconds: number;
  readConnections: number;
  warmupSeconds: number;
  importEvents: number;
  sections: Set<Section>;
  /** Which ingest targets to drive (all by default). */
  ingestTargets: Set<IngestTarget>;
  reload: boolean;
  /** Start the server with --cpu-prof; the profile lands in .bench-data/profiles. */
  profile: boolean;
  /** Extra Node flags for the server process. */
  nodeFlags: string[];
  /** The stores to run on, one after the other, each with its own table. */
  stores: Store[];
}

export const USAGE = `Usage: npm run bench -- [options]

  --events <n>          data set size (default 1000000; 10k, 1m, 10m accepted)
  --quick               10k events, 3 s runs, one run each: a check in about a minute
  --json                print the results as JSON instead of the table
  --runs <n>            runs per figure, the median is reported (default 3; 1 with --quick)
  --ingest-seconds <s>  length of each ingest run (default 20; 3 with --quick)
  --read-seconds <s>    length of each feed/search/charts run (default 5; 3 with --quick)
  --read-connections <n> concurrent connections for the reads (default 1: latency, not throughput)
  --only <list>         comma-separated subset of: ${SECTIONS.join(', ')}
                        (transfer: the export and the import; import: the import alone;
                        preferences: POST /api/events into 1,000 members without and with
                        notification preferences, CPU per event of each and their ratio)
  --ingest-targets <l>  comma-separated subset of: ${INGEST_TARGETS.join(', ')} (default all;
                        batch: POST /api/events/batch with 100 and with 1,000 events, 20 connections;
                        its comparison with the import needs the import too: --only ingest,import)
  --ingest-rate <n>     hold the ingest load at n requests/s in all, sent at evenly spaced times, each
                        latency counted from its due time (default: as fast as answered), to compare
                        servers at the same load rather than at their saturation
  --reload              load the data set again even if one of that size exists
  --profile             run the server with --cpu-prof (written to .bench-data/profiles)
  --node-flags=<flags>  extra Node flags for the server, e.g. --node-flags=--max-semi-space-size=2
  --store <list>        comma-separated stores, each run in turn with its own table: embedded,
                        external (DATABASE_URL), citus (a coordinator + worker started from
                        ../shared/citus/cluster.sh, kept in .bench-data). Default: external when
                        DATABASE_URL is set, else embedded. E.g. --store embedded,citus --only ingest

DATABASE_URL, when set, is used instead of the embedded PostgreSQL (give it a database of its own:
the data set is loaded into it and indexes of the events table are rebuilt during a load).
BENCH_LOG_LEVEL sets the server's LOG_LEVEL (default warn); at debug, its log (server.log in the
data set's folder) has every request's responseTime and the embedded PostgreSQL's own log lines.`;

function count(text: string, name: string): number {
  const match = /^(\d+(?:\.\d+)?)([km]?)$/i.exec(text.trim().replaceAll('_', ''));
  if (!match) throw new Error(`${name} must be a number such as 10000, 10k or 1m, got ${JSON.stringify(text)}`);
  const scale = { '': 1, k: 1_000, m: 1_000_000 }[match[2]!.toLowerCase() as '' | 'k' | 'm'];
  const value = Math.round(Number(match[1]) * scale);
  if (value < 1) throw new Error(`${name} must be at least 1`);
  return value;
}

export function parseOptions(argv: string[]): BenchOptions | 'help' {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      events: { type: 'string' },
      quick: { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
      runs: { type: 'string' },
      'ingest-seconds': { type: 'string' },
      'read-seconds': { type: 'string' },
      'read-connections': { type: 'string' },
      only: { type: 'string' },
      'ingest-targets': { type: 'string' },
      'ingest-rate': { type: 'string' },
      reload: { type: 'boolean', default: false },
      profile: { type: 'boolean', default: false },
      'node-flags': { type: 'string' },
      store: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) return 'help';
  const quick = values.quick;
  const sections = new Set<Section>(
    values.only
      ? values.only.split(',').map((name) => {
          const section = name.trim() as Section;
          if (!SECTIONS.includes(section)) throw new Error(`--only takes ${SECTIONS.join(', ')}; got ${JSON.stringify(name)}`);
          return section;
        })
      : SECTIONS,
  );
  const ingestTargets = new Set<IngestTarget>(
    values['ingest-targets']
      ? values['ingest-targets'].split(',').map((name) => {
          const target = name.trim() as IngestTarget;
          if (!INGEST_TARGETS.includes(target)) throw new Error(`--ingest-targets takes ${INGEST_TARGETS.join(', ')}; got ${JSON.stringify(name)}`);
          return target;
        })
      : INGEST_TARGETS,
  );
  const events = values.events ? count(values.events, '--events') : quick ? 10_000 : 1_000_000;
  const stores: Store[] = values.store
    ? values.store.split(',').map((name) => {
        const store = name.trim() as Store;
        if (!STORES.includes(store)) throw new Error(`--store takes ${STORES.join(', ')}; got ${JSON.stringify(name)}`);
        if (store === 'external' && !process.env.DATABASE_URL) throw new Error('--store external needs DATABASE_URL');
        return store;
      })
    : [process.env.DATABASE_URL ? 'external' : 'embedded'];
  return {
    events,
    quick,
    json: values.json,
    runs: values.runs ? count(values.runs, '--runs') : quick ? 1 : 3,
    ingestSeconds: values['ingest-seconds'] ? count(values['ingest-seconds'], '--ingest-seconds') : quick ? 3 : 20,
    ingestConnections: 50,
    ingestRate: values['ingest-rate'] ? count(values['ingest-rate'], '--ingest-rate') : null,
    readSeconds: values['read-seconds'] ? count(values['read-seconds'], '--read-seconds') : quick ? 3 : 5,
    readConnections: values['read-connections'] ? count(values['read-connections'], '--read-connections') : 1,
    warmupSeconds: quick ? 1 : 2,
    importEvents: quick ? 10_000 : 100_000,
    sections,
    ingestTargets,
    reload: values.reload,
    profile: values.profile,
    nodeFlags: values['node-flags']?.split(/\s+/).filter(Boolean) ?? [],
    stores,
  };
}
