import { Link } from 'wouter';
import { BellIcon, BracesIcon, StarIcon, TrashIcon } from '../../components/Icons.tsx';
import { Markup, safeHref } from '../../components/Markup.tsx';
import { RelativeTime } from '../../components/Time.tsx';
import type { EventItem } from '../../types.ts';

export interface EventCardProps {
  event: EventItem;
  /** The event a notification was opened for: marked until the page is left. */
  linked?: boolean;
  onFavorite: () => void;
  onDelete: () => void;
  onMetadata: () => void;
  onTag: (key: string, value: unknown) => void;
  onCategory: () => void;
}

export function EventCard({ event, linked = false, onFavorite, onDelete, onMetadata, onTag, onCategory }: EventCardProps) {
  const href = safeHref(event.url);
  const titleId = `event-${event.id}-title`;
  const className = ['event', event.notify && 'event-notify', linked && 'event-linked'].filter(Boolean).join(' ');
  return (
    <article className={className} aria-labelledby={titleId} aria-current={linked || undefined} data-event-id={event.id}>
      <div className="event-icon" aria-hidden="true">
        {event.icon || '•'}
      </div>
      <div className="event-main">
        <div className="event-head">
          <h3 className="event-title" id={titleId}>
            {href ? (
              <a href={href} target="_blank" rel="noopener noreferrer">
                {event.title}
              </a>
            ) : (
              event.title
            )}
          </h3>
          {event.notify && (
            <span className="badge badge-notify" title="Sent as a notification">
              <BellIcon /> notify
            </span>
          )}
        </div>
        {event.description && (
          <div className="event-description">
            <Markup text={event.description} />
          </div>
        )}
        <div className="event-meta">
          <button type="button" className="chip chip-category" onClick={onCategory} title="Show only this category">
            #{event.category}
          </button>
          {event.tags &&
            Object.entries(event.tags).map(([key, value]) => (
              <button
                type="button"
                key={key}
                className="chip tag"
                onClick={() => onTag(key, value)}
                title={`Filter by ${key}`}
                aria-label={`Filter by tag ${key}: ${String(value)}`}
              >
                <span className="tag-key">{key}</span>
                <span className="tag-value">{String(value)}</span>
              </button>
            ))}
          {event.user_id && (
            <Link href={`/users/${encodeURIComponent(event.user_id)}`} className="user-id" title="The user's profile">
              <span className="muted">user</span> {event.user_id}
            </Link>
          )}
          <span className="event-time">
            <RelativeTime iso={event.createdAt} />
          </span>
        </div>
      </div>
      <div className="event-actions">
        <button
          type="button"
          className={event.favorited ? 'icon-button favorite on' : 'icon-button favorite'}
          aria-pressed={event.favorited}
          aria-label={event.favorited ? 'Remove from favorites' : 'Add to favorites'}
          title={event.favorited ? 'Favorited' : 'Favorite'}
          onClick={onFavorite}
        >
          <StarIcon filled={event.favorited} />
        </button>
        {event.metadata !== null && event.metadata !== undefined && (
          <button type="button" className="icon-button" aria-label="Show metadata" title="Metadata" onClick={onMetadata}>
            <BracesIcon />
          </button>
        )}
        <button type="button" className="icon-button danger" aria-label="Delete event" title="Delete" onClick={onDelete}>
          <TrashIcon />
        </button>
      </div>
    </article>
  );
}
