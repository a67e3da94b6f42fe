import { useEffect, useRef, useState } from 'react';
import type { FeedQuery } from './FeedFilters.tsx';

const SEARCH_DELAY_MS = 300;

/** The search box's text, written to the URL after a pause; Back or a link brings its text back. */
export function useSearchInput(search: string, updateQuery: (change: Partial<FeedQuery>, options?: { replace?: boolean }) => void) {
  const [searchInput, setSearchInput] = useState(search);
  const writtenSearch = useRef(search);
  useEffect(() => {
    if (search !== writtenSearch.current) setSearchInput(search);
    writtenSearch.current = search;
  }, [search]);
  useEffect(() => {
    if (searchInput === search) return;
    const timer = setTimeout(() => {
      writtenSearch.current = searchInput;
      updateQuery({ search: searchInput }, { replace: true });
    }, SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [searchInput, search, updateQuery]);
  return [searchInput, setSearchInput] as const;
}
