/**
 * The longest `user_id` that names an application user, in characters (extensions.md, "Users").
 * identify refuses a longer one; an event may carry it, but it makes no user, on ingest and on
 * import alike.
 */
export const MAX_USER_ID = 255;

/**
 * How long one statement of a request may run before PostgreSQL cancels it (README, "Limits on
 * requests"). The worst search the limits below allow took 0.4 s on a 12,742-event project; ten
 * times that leaves room for a loaded machine. Background work has a bound of its own (below);
 * imports run without one.
 */
export const REQUEST_STATEMENT_TIMEOUT_MS = 5000;

/**
 * Every statement of the background loops (alerts, indexer, pruners, deliveries, mail): a batch
 * takes well under a second, so one past this is stuck or far too big, and is better cut and
 * retried than left holding a connection and its organization's work (decision 200).
 */
export const BACKGROUND_STATEMENT_TIMEOUT_MS = 30_000;

/** The longest `search` of the feed and the users list, in characters. */
export const MAX_SEARCH_LENGTH = 200;
