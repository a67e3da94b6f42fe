import { useEffect, useState } from 'react';
import { get, withQuery } from '../../api.ts';
import type { EventPage } from '../../types.ts';

/**
 * The tag keys of the project's latest 100 events, most used first: suggestions for "Break down
 * by tag key", so a key is picked rather than guessed. Without an answer there are none.
 */
export function useTagKeys(projectId: string): string[] {
  const [keys, setKeys] = useState<string[]>([]);
  useEffect(() => {
    let live = true;
    get<EventPage>(withQuery('/api/events', { project: projectId, limit: 100 })).then(
      ({ events }) => {
        const uses = new Map<string, number>();
        for (const event of events) for (const key of Object.keys(event.tags ?? {})) uses.set(key, (uses.get(key) ?? 0) + 1);
        if (live) setKeys([...uses.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([key]) => key));
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [projectId]);
  return keys;
}
