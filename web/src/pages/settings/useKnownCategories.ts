import { useEffect, useState } from 'react';
import { isAbort } from '../../api.ts';
import * as api from '../../generated/index.ts';
import type { CategoryCount } from '../../types.ts';

/**
 * The project's categories, for the destinations' category pickers; null while they load, and
 * empty when they cannot be read (the picker then still takes typed names, unflagged).
 */
export function useKnownCategories(projectId: string): CategoryCount[] | null {
  const [categories, setCategories] = useState<CategoryCount[] | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    api.listCategories({ query: { project: projectId } }, { signal: controller.signal }).then(setCategories, (error: unknown) => {
      if (!isAbort(error)) setCategories([]);
    });
    return () => controller.abort();
  }, [projectId]);
  return categories;
}
