// A user of a project as people read them: their name (the `name` property, else `email`, else
// the id) and two initials, wherever a user appears (feed cards, journeys, the users list).
import { useEffect, useState } from 'react';
import * as api from '../generated/index.ts';

type Properties = Record<string, string | number | boolean | null> | undefined;

const text = (value: unknown) => (typeof value === 'string' && value.trim() ? value.trim() : null);

export function personName(userId: string, properties: Properties): string {
  return text(properties?.name) ?? text(properties?.email) ?? userId;
}

/** "Ada Lovelace" → "AL", "ada@example.com" → "A", "usr_tp69" → "U". */
export function initials(name: string): string {
  const words = name
    .replace(/@.*$/, '')
    .split(/[\s._-]+/)
    .filter((word) => /\p{L}|\p{N}/u.test(word));
  const letters = words.slice(0, 2).map((word) => [...word][0] ?? '');
  return (letters.join('') || '?').toUpperCase();
}

// One request per user per page load, shared by every card that names them.
const known = new Map<string, Promise<string>>();

/** The user's name for a card: the id until the profile answers (and when it cannot). */
export function usePersonName(projectId: string, userId: string | null): string | null {
  const [name, setName] = useState<string | null>(userId);
  useEffect(() => {
    if (!userId) return setName(null);
    setName(userId);
    const cacheKey = `${projectId}\n${userId}`;
    let pending = known.get(cacheKey);
    if (!pending) {
      pending = api.getUser({ path: { userId }, query: { project: projectId } }).then(
        (user) => personName(userId, user.properties),
        () => userId,
      );
      known.set(cacheKey, pending);
    }
    let live = true;
    void pending.then((found) => live && setName(found));
    return () => {
      live = false;
    };
  }, [projectId, userId]);
  return name;
}
