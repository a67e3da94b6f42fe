import type { Db } from './client.ts';

// SQL expressions over the events table that several features' statements must write exactly
// alike: the feed and its search, the search indexer and the alert engine's filters. They belong
// with the schema (migrations/), not with one feature, so that no feature imports another's SQL.

/**
 * The text search matches: what search checks every candidate against, and what the search
 * indexer takes the words of a block from (migrations/126_search_blocks.sql).
 */
export const searchDocument = (sql: Db) => sql`(title || E'\\x1f' || coalesce(description, '') || E'\\x1f' || coalesce(tags::text, ''))`;

/**
 * ` AND (...)` for each tag filter: the event's tags contain one of its alternatives (the JSON
 * objects of events/tagFilter.ts's tagAlternatives). `<alias>.tags::jsonb` must stay identical to
 * the expression of the `events_tags` index (migrations/050), or the filter scans: the feed, the
 * alert engine, charts and funnels all write it through here.
 */
export function tagsContain(sql: Db, tags: readonly string[][], alias = 'e') {
  const column = sql`${sql(alias)}.tags::jsonb`;
  return tags.reduce(
    (all, alternatives) =>
      sql`${all} AND (${alternatives.slice(1).reduce((any, json) => sql`${any} OR ${column} @> ${json}::text::jsonb`, sql`${column} @> ${alternatives[0]!}::text::jsonb`)})`,
    sql``,
  );
}
