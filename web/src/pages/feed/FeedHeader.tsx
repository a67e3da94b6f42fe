import type { RefObject } from 'react';
import { BellIcon, SearchIcon } from '../../components/Icons.tsx';
import './feed.css';

interface FeedHeaderProps {
  title: string;
  searchInput: string;
  setSearchInput: (text: string) => void;
  clearSearch: () => void;
  searchRef: RefObject<HTMLInputElement | null>;
  sound: boolean;
  toggleSound: () => void;
}

/** The page's h1, the search box ("/" focuses it) and the notification sound toggle. */
export function FeedHeader({ title, searchInput, setSearchInput, clearSearch, searchRef, sound, toggleSound }: FeedHeaderProps) {
  return (
    <div className="feed-toolbar">
      <h1 id="feed-title" className="feed-title">
        {title}
      </h1>
      <div className="feed-toolbar-tools">
        <div className="search-box">
          <label htmlFor="feed-search" className="visually-hidden">
            Search events
          </label>
          <SearchIcon />
          <input
            ref={searchRef}
            id="feed-search"
            type="search"
            maxLength={200}
            placeholder="Search title, description, tags"
            aria-keyshortcuts="/"
            value={searchInput}
            onChange={(event) => setSearchInput(event.target.value)}
          />
          {searchInput ? (
            <button type="button" className="icon-button" aria-label="Clear search" onClick={clearSearch}>
              ×
            </button>
          ) : (
            <kbd className="search-key" aria-hidden="true">
              /
            </kbd>
          )}
        </div>
        <button
          type="button"
          className={sound ? 'icon-button sound-toggle on' : 'icon-button sound-toggle'}
          aria-pressed={sound}
          title={sound ? 'Sound for notify events: on' : 'Sound for notify events: off'}
          onClick={toggleSound}
        >
          <BellIcon />
          <span className="sound-state">{sound ? 'Sound on' : 'Sound off'}</span>
          <span className="visually-hidden"> for notify events</span>
        </button>
      </div>
    </div>
  );
}
