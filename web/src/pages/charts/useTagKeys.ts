import { useResource } from '../../components/useResource.ts';
import * as api from '../../generated/index.ts';

/**
 * The tag keys of the project's latest 100 events, most used first: suggestions for "Break down
 * by tag key", so a key is picked rather than guessed. Without an answer there are none.
 */
export function useTagKeys(projectId: string): string[] {
  const { data: keys } = useResource(
    async (signal) => {
      const { events } = await api.listEvents({ query: { project: projectId, limit: '100' } }, { signal });
      const uses = new Map<string, number>();
      for (const event of events) for (const key of Object.keys(event.tags ?? {})) uses.set(key, (uses.get(key) ?? 0) + 1);
      return [...uses.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([key]) => key);
    },
    [projectId],
  );
  return keys ?? [];
}
