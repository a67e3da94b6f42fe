import { useEffect, useState } from 'react';
import { isAbort } from '../api.ts';
import { useToast } from './Toasts.tsx';

type Query = Record<string, string | undefined>;

/**
 * A keyset-paged listing (users, groups): the first page for `query`, loaded again 200 ms after
 * the query last changed (a search box types through it) and dropped when a newer one starts;
 * `more()` appends the next page. `items` is null until the first page arrives.
 *
 * Not built on useResource: the wait after typing and the pages appended by `more()` are this
 * listing's own, and it has no live refresh (a list that moved under the reader would lose their
 * place); `load` is still the page's generated `api.*` call.
 */
export function useKeysetPages<Item, Page extends { nextCursor: string | null }, Q extends Query>(
  load: (query: Q & { cursor?: string }, signal?: AbortSignal) => Promise<Page>,
  query: Q,
  itemsOf: (page: Page) => Item[],
  what: string,
): { items: Item[] | null; nextCursor: string | null; more: () => Promise<void> } {
  const toast = useToast();
  const [items, setItems] = useState<Item[] | null>(null);
  const [nextCursor, setNextCursor] = useState<string | null>(null);
  const key = JSON.stringify(query);

  useEffect(() => {
    const controller = new AbortController();
    const timer = setTimeout(() => {
      load(query, controller.signal).then(
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
    // `key` is the whole query; `load`, `itemsOf` and `what` do not change between renders of a page.
  }, [key, toast]);

  const more = async () => {
    if (!nextCursor) return;
    try {
      const page = await load({ ...query, cursor: nextCursor });
      setItems((current) => [...(current ?? []), ...itemsOf(page)]);
      setNextCursor(page.nextCursor);
    } catch (error) {
      toast.error(error, `Could not load more ${what}`);
    }
  };
  return { items, nextCursor, more };
}
