import type { Db } from './client.ts';

// SQL expressions over the events table that several features' statements must write exactly
// alike: the feed and its search, the search indexer and the alert engine's filters. They belong
// with the schema (migrations/), not with one feature, so that no feature imports another's SQL.

/**
 * The text search matches: what search checks every candidate against, and what the search
 * indexer takes the words of a block from (migrations/126_search_blocks.sql).
 */
export const searchDocument = (sql: Db) =>
  sql`(title || E'\\x1f' || coalesce(description, '') || E'\\x1f' || coalesce(tags::text, ''))`;
