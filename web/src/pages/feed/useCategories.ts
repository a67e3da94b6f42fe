import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError } from '../../api.ts';
import { useToast } from '../../components/Toasts.tsx';
import * as api from '../../generated/index.ts';
import type { CategoryCount } from '../../types.ts';

const CATEGORY_REFRESH_MS = 800;

/** The project's categories with all-time counts, refreshed (throttled) as events come and go. */
export function useCategories(projectId: string) {
  const toast = useToast();
  const [categories, setCategories] = useState<CategoryCount[] | null>(null);

  const loadCategories = useCallback(async () => {
    try {
      setCategories(await api.listCategories({ query: { project: projectId } }));
    } catch (error) {
      // A missing project is reported once, by the events request, which also leaves the page.
      if (!(error instanceof ApiError && error.status === 404)) toast.error(error, 'Could not load categories');
      setCategories((current) => current ?? []);
    }
  }, [projectId, toast]);

  useEffect(() => {
    void loadCategories();
  }, [loadCategories]);

  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  // Throttled, not debounced: a steady stream of events must not postpone the counts forever.
  const scheduleCategories = useCallback(() => {
    if (timer.current !== undefined) return;
    timer.current = setTimeout(() => {
      timer.current = undefined;
      void loadCategories();
    }, CATEGORY_REFRESH_MS);
  }, [loadCategories]);
  useEffect(() => () => clearTimeout(timer.current), []);

  return { categories, scheduleCategories };
}
