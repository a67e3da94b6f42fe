/**
 * Disk use per event of the data set: the events table (with its TOAST), its indexes, and the
 * search blocks with their trigram index (decisions 090, 167), each divided by the events in the table.
 * On Citus the shards are on the workers, so Citus's own size functions are used.
 *
 * A reused data set has also held the events earlier runs wrote and removed: vacuum lets the
 * space be used again but does not give it back, so after many runs the table and its indexes
 * are larger than the product makes them. The figure measured when the data set was loaded is
 * kept with it (dataset.json) and is the one the row reports first.
 */
import type postgres from 'postgres';
import type { Row } from './report.ts';

/** Bytes per event, and the events they were measured over. */
export interface DiskPerEvent {
  bytesPerEvent: number;
  table: number;
  indexes: number;
  search: number;
  events: number;
}

interface Sizes {
  events: number;
  eventIndexes: number;
  search: number;
  count: number;
}

export async function measureDisk(sql: postgres.Sql, citus: boolean): Promise<DiskPerEvent> {
  const [sizes] = citus
    ? await sql<Sizes[]>`
        SELECT citus_table_size('events')::float8 AS events,
               (citus_total_relation_size('events') - citus_table_size('events'))::float8 AS "eventIndexes",
               citus_total_relation_size('search_blocks')::float8 AS search,
               (SELECT count(*) FROM events)::float8 AS count`
    : await sql<Sizes[]>`
        SELECT pg_table_size('events')::float8 AS events,
               pg_indexes_size('events')::float8 AS "eventIndexes",
               coalesce(pg_total_relation_size(to_regclass('search_blocks')), 0)::float8 AS search,
               (SELECT count(*) FROM events)::float8 AS count`;
  const { events, eventIndexes, search, count } = sizes!;
  const per = (bytes: number) => Math.round(bytes / Math.max(count, 1));
  return { bytesPerEvent: per(events + eventIndexes + search), table: per(events), indexes: per(eventIndexes), search: per(search), events: count };
}

const describe = (disk: DiskPerEvent) =>
  `${disk.bytesPerEvent} B = table ${disk.table} + indexes ${disk.indexes} + search ${disk.search} (${Math.round(disk.events).toLocaleString('en-US')} events)`;

/** Beyond this share of growth, the reused data set's own figure is shown beside the one as loaded. */
const CHURN_SHOWN_FROM = 0.02;

/** The row: the data set as loaded when that is known, and as it is now when runs have grown it. */
export function diskRow(now: DiskPerEvent, asLoaded?: DiskPerEvent): Row {
  const shown = asLoaded ?? now;
  const grown = now.bytesPerEvent > shown.bytesPerEvent * (1 + CHURN_SHOWN_FROM);
  const result = grown ? `${describe(shown)} as loaded; ${now.bytesPerEvent} B now, after earlier runs' writes and removals` : describe(shown);
  return { id: 'disk.perEvent', label: 'Disk per event', result, data: { ...shown, now } };
}
