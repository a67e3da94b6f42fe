import { memo, useLayoutEffect, useRef, useState } from 'react';
import { UserBadge } from '../../components/UserBadge.tsx';
import { Link } from 'wouter';
import { BellIcon, StarIcon, TrashIcon } from '../../components/Icons.tsx';
import { Markup, safeHref } from '../../components/Markup.tsx';
import { exactTime } from '../../components/Time.tsx';
import type { EventItem } from '../../types.ts';
import { clockTime } from './dayLabel.ts';
import { removeFromTabOrder, stepWithinCard } from './rovingFocus.ts';
import './feed.css';

export interface EventRowProps {
  event: EventItem;
  /** The event a notification was opened for: marked until the page is left. */
  linked: boolean;
  /** The keyboard selection (j/k); it is also the row Tab reaches. */
  selected: boolean;
  tabbable: boolean;
  /**
   * Part of the feed's roving tab index (rovingFocus.ts): the card's controls leave the Tab order
   * and are reached with Left/Right; focusing the card selects it.
   */
  roving?: boolean;
  onSelect?: (id: number) => void;
  onOpen: (event: EventItem) => void;
  onFavorite: (event: EventItem) => void;
  onDelete: (event: EventItem) => void;
  onCopyLink: (event: EventItem) => void;
  onTag: (key: string, value: unknown) => void;
  onCategory: (category: string) => void;
}

/** A click on a control inside the row does its own thing; anywhere else opens the detail. */
const isControl = (target: EventTarget | null) => target instanceof Element && target.closest('a, button, input, select, label') !== null;

function LinkIcon() {
  return (
    <svg width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" aria-hidden="true">
      <path d="M10 13a5 5 0 0 0 7.07 0l3-3a5 5 0 0 0-7.07-7.07l-1 1" />
      <path d="M14 11a5 5 0 0 0-7.07 0l-3 3a5 5 0 0 0 7.07 7.07l1-1" />
    </svg>
  );
}

/** The event's title, a link to its `url` when that is a safe address. */
export function EventTitle({ title, href }: { title: string; href: string | null }) {
  return href ? (
    <a href={href} target="_blank" rel="noopener noreferrer">
      {title}
    </a>
  ) : (
    <>{title}</>
  );
}

/** One compact row of the feed; its actions show on hover or focus, or behind "…" on touch screens. */
export const EventRow = memo(function EventRow({
  event,
  linked,
  selected,
  tabbable,
  roving = false,
  onSelect,
  onOpen,
  onFavorite,
  onDelete,
  onCopyLink,
  onTag,
  onCategory,
}: EventRowProps) {
  const [menuOpen, setMenuOpen] = useState(false);
  const card = useRef<HTMLElement>(null);
  // After every render: the description's markup can bring links of its own.
  useLayoutEffect(() => {
    if (roving && card.current) removeFromTabOrder(card.current);
  });
  const href = safeHref(event.url);
  const titleId = `event-${event.id}-title`;
  const created = new Date(event.createdAt);
  const className = ['event', event.notify && 'event-notify', linked && 'event-linked', selected && 'event-selected', event.favorited && 'event-favorited']
    .filter(Boolean)
    .join(' ');
  const act = (action: (event: EventItem) => void) => () => {
    setMenuOpen(false);
    action(event);
  };
  return (
    <article
      ref={card}
      className={className}
      aria-labelledby={titleId}
      aria-current={linked || undefined}
      data-event-id={event.id}
      tabIndex={tabbable ? 0 : -1}
      onClick={(click) => {
        if (!isControl(click.target)) onOpen(event);
      }}
      onFocus={() => {
        if (roving && !selected) onSelect?.(event.id);
      }}
      onKeyDown={(key) => {
        if (key.key === 'Escape' && menuOpen) {
          key.stopPropagation();
          setMenuOpen(false);
        }
        const modified = key.altKey || key.ctrlKey || key.metaKey || key.shiftKey;
        if (roving && !modified && (key.key === 'ArrowRight' || key.key === 'ArrowLeft') && card.current) {
          key.preventDefault();
          stepWithinCard(card.current, key.key === 'ArrowRight' ? 1 : -1);
        }
      }}
    >
      <div className="event-icon" aria-hidden="true">
        {event.icon || <span className="event-initial">{(event.category.match(/\p{L}|\p{N}/u)?.[0] ?? '#').toUpperCase()}</span>}
      </div>
      <div className="event-main">
        <div className="event-head">
          <h3 className="event-title" id={titleId}>
            <EventTitle title={event.title} href={href} />
          </h3>
        </div>
        {event.description && (
          <div className="event-description">
            <Markup text={rowDescription(event.description)} />
          </div>
        )}
        <div className="event-meta">
          {event.notify && (
            <span className="badge badge-notify" title="Sent as a notification">
              <BellIcon /> notify
            </span>
          )}
          <button type="button" className="chip chip-category" onClick={() => onCategory(event.category)} title={`Show only #${event.category}`}>
            #{event.category}
          </button>
          {event.tags &&
            Object.entries(event.tags).map(([key, value]) => (
              <button type="button" key={key} className="chip tag" onClick={() => onTag(key, value)} title={`Filter by ${key}: ${String(value)}`}>
                {/* The name is the visible text with what it does around it (WCAG 2.5.3). */}
                <span className="visually-hidden">Filter by tag </span>
                <span className="tag-key">{key}</span>
                <span className="visually-hidden">: </span>
                <span className="tag-value">{String(value)}</span>
              </button>
            ))}
          {event.user_id && (
            <Link href={`/users/${encodeURIComponent(event.user_id)}`} className="user-id" title={`The profile of ${event.user_id}`}>
              <UserBadge projectId={event.projectId} userId={event.user_id} />
            </Link>
          )}
        </div>
      </div>
      <div className="event-side">
        {event.favorited && (
          <span className="event-star" title="Favorite" aria-hidden="true">
            <StarIcon filled />
          </span>
        )}
        <time className="event-time" dateTime={event.createdAt} title={exactTime(event.createdAt)}>
          {clockTime(created)}
        </time>
        <button
          type="button"
          className="icon-button event-more"
          aria-label="More actions"
          aria-expanded={menuOpen}
          onClick={() => setMenuOpen((open) => !open)}
        >
          ⋯
        </button>
        <div className={menuOpen ? 'event-actions open' : 'event-actions'} role="group" aria-label="Event actions">
          <button
            type="button"
            className={event.favorited ? 'icon-button favorite on' : 'icon-button favorite'}
            aria-pressed={event.favorited}
            aria-label={event.favorited ? 'Remove from favorites' : 'Add to favorites'}
            title={event.favorited ? 'Remove from favorites (f)' : 'Add to favorites (f)'}
            onClick={act(onFavorite)}
          >
            <StarIcon filled={event.favorited} />
          </button>
          <button type="button" className="icon-button" aria-label="Copy link to event" title="Copy link" onClick={act(onCopyLink)}>
            <LinkIcon />
          </button>
          <button type="button" className="icon-button danger" aria-label="Delete event" title="Delete" onClick={act(onDelete)}>
            <TrashIcon />
          </button>
        </div>
      </div>
    </article>
  );
});

/** A row shows a few lines: parsing up to 64 KB of markup for each of 50 rows would stall the page. */
const ROW_DESCRIPTION_LENGTH = 2000;

function rowDescription(text: string): string {
  return text.length > ROW_DESCRIPTION_LENGTH ? `${text.slice(0, ROW_DESCRIPTION_LENGTH)}…` : text;
}
