import { useCallback } from 'react';
import { useResource } from '../../components/useResource.ts';

/**
 * A settings list (a project's hooks, its destinations): loaded when the section mounts, loaded
 * again when the live stream says a record of this kind changed elsewhere (`<kind>.*`: another
 * tab, the API) or asks for a resync, and patched in place by the section's own writes, whose
 * replies carry the record.
 */
export function useLiveRecords<T extends { id: string }>(load: (signal: AbortSignal) => Promise<T[]>, projectId: string, kind: string) {
  const { data: records, error, reload, setData } = useResource(load, [projectId], { live: (message) => message.type.startsWith(`${kind}.`) });

  const add = useCallback((record: T) => setData((list) => [...(list ?? []), record]), [setData]);
  const replace = useCallback((record: T) => setData((list) => list?.map((item) => (item.id === record.id ? record : item)) ?? null), [setData]);
  const remove = useCallback((id: string) => setData((list) => list?.filter((item) => item.id !== id) ?? null), [setData]);

  return { records, error, reload, add, replace, remove };
}
