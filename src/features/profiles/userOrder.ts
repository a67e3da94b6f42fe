/**
 * The orders of the users list (`GET /api/users?sort=`) and their keyset cursors. Each order is a
 * key (a time as microseconds, or a count) then `userId`, both descending (decision 161).
 */
export type UserSort = 'lastSeen' | 'firstSeen' | 'events' | 'lastActive';

/** Where the previous page ended: its last user's sort key (null: never seen) and id. */
export interface UserCursor {
  sort: UserSort;
  /** Microseconds since the epoch as decimal text (times), or the event count as text. */
  key: string | null;
  userId: string;
}

/** Opaque to clients: base64url of `[sort, key | null, userId]`. */
export function encodeUserCursor(cursor: UserCursor): string {
  return Buffer.from(JSON.stringify([cursor.sort, cursor.key, cursor.userId])).toString('base64url');
}

/**
 * Anything unreadable, or a cursor of another order, is the first page (as the feed's cursor is).
 * A cursor of the first release, `[lastSeenMicros | null, userId]`, still reads as `lastSeen`.
 */
export function decodeUserCursor(cursor: string | undefined, sort: UserSort): UserCursor | undefined {
  if (!cursor) return undefined;
  try {
    const parts = JSON.parse(Buffer.from(cursor, 'base64url').toString()) as unknown[];
    const [cursorSort, key, userId] = parts.length === 2 ? ['lastSeen', ...parts] : parts;
    if (cursorSort !== sort || typeof userId !== 'string') return undefined;
    const pattern = sort === 'events' ? /^\d{1,10}$/ : /^-?\d{1,19}$/;
    const keyOk = key === null ? sort !== 'events' : typeof key === 'string' && pattern.test(key);
    return keyOk ? { sort, key: key as string | null, userId } : undefined;
  } catch {
    return undefined;
  }
}
