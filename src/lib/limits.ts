/**
 * The longest `user_id` that names an application user, in characters (extensions.md, "Users").
 * identify refuses a longer one; an event may carry it, but it makes no user, on ingest and on
 * import alike.
 */
export const MAX_USER_ID = 255;
