/**
 * The longest `user_id` that names an application user, in characters (extensions.md, "Users").
 * identify refuses a longer one; an event may carry it, but it makes no user, on ingest and on
 * import alike.
 */
export const MAX_USER_ID = 255;

/**
 * How long one statement of a request may run before PostgreSQL cancels it (README, "Limits on
 * requests"). The worst search the limits below allow took 0.4 s on a 12,742-event project; ten
 * times that leaves room for a loaded machine. Background work and imports run without it.
 */
export const REQUEST_STATEMENT_TIMEOUT_MS = 5000;

/** The longest `search` of the feed and the users list, in characters. */
export const MAX_SEARCH_LENGTH = 200;
