/**
 * The orders of the groups list (`GET /api/groups?sort=`) and their keyset cursors: last seen
 * and users count descending, name ascending; ties by group id in the same direction.
 */
export type GroupSort = 'lastSeen' | 'users' | 'name';

/** Where the previous page ended: its last group's sort key and id. */
export interface GroupCursor {
  sort: GroupSort;
  /** Microseconds since the epoch as decimal text (null: no events), the users count as text, or the name key. */
  key: string | null;
  groupId: string;
}

/** Opaque to clients: base64url of `[sort, key | null, groupId]`. */
export function encodeGroupCursor(cursor: GroupCursor): string {
  return Buffer.from(JSON.stringify([cursor.sort, cursor.key, cursor.groupId])).toString('base64url');
}

/** Anything unreadable, or a cursor of another order, is the first page (as the feed's cursor is). */
export function decodeGroupCursor(cursor: string | undefined, sort: GroupSort): GroupCursor | undefined {
  if (!cursor) return undefined;
  try {
    const [cursorSort, key, groupId] = JSON.parse(Buffer.from(cursor, 'base64url').toString()) as unknown[];
    if (cursorSort !== sort || typeof groupId !== 'string') return undefined;
    const keyOk =
      sort === 'lastSeen'
        ? key === null || (typeof key === 'string' && /^-?\d{1,19}$/.test(key))
        : sort === 'users'
          ? typeof key === 'string' && /^\d{1,10}$/.test(key)
          : typeof key === 'string';
    return keyOk ? { sort, key: key as string | null, groupId } : undefined;
  } catch {
    return undefined;
  }
}
