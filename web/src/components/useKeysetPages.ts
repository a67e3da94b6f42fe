import { useEffect, useState } from 'react';
import { get, isAbort, withQuery } from '../api.ts';
import { useToast } from './Toasts.tsx';

type Query = Record<string, string | undefined>;

/**
 * A keyset-paged listing (users, groups): the first page for `query`, loaded again 200 ms after
 * the query last changed (a search box types through it) and dropped when a newer one starts;
 * `more()` appends the next page. `items` is null until the first page arrives.
 */
export function useKeysetPages<Item, Page extends { nextCursor: string | null }>(
  path: string,
  query: Query,
  itemsOf: (page: Page) => Item[],
  what: string,
): { items: Item[] | null; nextCursor: string | null; more: () => Promise<void> } {
  const toast = useToast();
  const [items, setItems] = useState<Item[] | null>(null);
  const [nextCursor, setNextCursor] = useState<string | null>(null);
  const key = withQuery(path, query);

  useEffect(() => {
    const controller = new AbortController();
    const timer = setTimeout(() => {
      get<Page>(key, { signal: controller.signal }).then(
        (page) => {
          setItems(itemsOf(page));
          setNextCursor(page.nextCursor);
        },
        (error: unknown) => {
          if (!isAbort(error)) toast.error(error, `Could not load ${what}`);
        },
      );
    }, 200);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
    // `key` is the whole query; `itemsOf` and `what` do not change between renders of a page.
  }, [key, toast]);

  const more = async () => {
    if (!nextCursor) return;
    try {
      const page = await get<Page>(withQuery(path, { ...query, cursor: nextCursor }));
      setItems((current) => [...(current ?? []), ...itemsOf(page)]);
      setNextCursor(page.nextCursor);
    } catch (error) {
      toast.error(error, `Could not load more ${what}`);
    }
  };
  return { items, nextCursor, more };
}
