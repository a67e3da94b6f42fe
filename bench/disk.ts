/**
 * Disk use per event of the data set: the events table (with its TOAST), its indexes, and the
 * search blocks with their trigram index (decisions 090, 167), each divided by the events in the table.
 * On Citus the shards are on the workers, so Citus's own size functions are used.
 */
import type postgres from 'postgres';
import type { Row } from './report.ts';

interface Sizes {
  events: number;
  eventIndexes: number;
  search: number;
  count: number;
}

export async function diskRow(sql: postgres.Sql, citus: boolean): Promise<Row> {
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
  const total = per(events + eventIndexes + search);
  return {
    id: 'disk.perEvent',
    label: 'Disk per event',
    result: `${total} B = table ${per(events)} + indexes ${per(eventIndexes)} + search ${per(search)} (${Math.round(count).toLocaleString('en-US')} events)`,
    data: { bytesPerEvent: total, table: per(events), indexes: per(eventIndexes), search: per(search), events: count },
  };
}
