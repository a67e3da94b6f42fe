import { Link } from 'wouter';
import { CopyButton } from '../../components/CopyButton.tsx';
import { Dialog } from '../../components/Dialog.tsx';
import { BellIcon, StarIcon, TrashIcon } from '../../components/Icons.tsx';
import { Markup, safeHref } from '../../components/Markup.tsx';
import { exactTime } from '../../components/Time.tsx';
import type { EventItem } from '../../types.ts';
import { EventTitle } from './EventRow.tsx';
import { eventLink } from './feedLinks.ts';
import './feed.css';

interface EventDetailProps {
  event: EventItem | null;
  onClose: () => void;
  onFavorite: (event: EventItem) => void;
  onDelete: (event: EventItem) => void;
}

/** The whole event: every field, the exact time, and its actions. Opened by a click or Enter. */
export function EventDetail({ event, onClose, onFavorite, onDelete }: EventDetailProps) {
  const href = event ? safeHref(event.url) : null;
  const metadataText = event && event.metadata !== null && event.metadata !== undefined ? JSON.stringify(event.metadata, null, 2) : null;
  return (
    <Dialog open={event !== null} title="Event details" onClose={onClose} wide>
      {event && (
        <div className="event-detail" data-testid="event-detail">
          <div className="event-detail-head">
            <span className="event-icon" aria-hidden="true">
              {event.icon || '•'}
            </span>
            <h3 className="event-detail-title">
              <EventTitle title={event.title} href={href} />
            </h3>
          </div>
          {event.description && (
            <div className="event-detail-description">
              <Markup text={event.description} />
            </div>
          )}
          <div className="event-detail-actions">
            <button type="button" className="button button-small" aria-pressed={event.favorited} onClick={() => onFavorite(event)} data-autofocus>
              <StarIcon filled={event.favorited} /> {event.favorited ? 'Remove from favorites' : 'Add to favorites'}
            </button>
            <CopyButton text={eventLink(event)} what="link" label="Copy link" />
            <button type="button" className="button button-small button-danger" onClick={() => onDelete(event)}>
              <TrashIcon /> Delete event
            </button>
          </div>
          <dl className="event-fields">
            <dt>Time</dt>
            <dd>
              <time dateTime={event.createdAt}>{exactTime(event.createdAt)}</time>
            </dd>
            <dt>Category</dt>
            <dd>#{event.category}</dd>
            {event.notify && (
              <>
                <dt>Notify</dt>
                <dd>
                  <span className="badge badge-notify">
                    <BellIcon /> sent as a notification
                  </span>
                </dd>
              </>
            )}
            {event.user_id && (
              <>
                <dt>User</dt>
                <dd>
                  <Link href={`/users/${encodeURIComponent(event.user_id)}`} onClick={onClose}>
                    {event.user_id}
                  </Link>
                </dd>
              </>
            )}
            {event.tags && Object.keys(event.tags).length > 0 && (
              <>
                <dt>Tags</dt>
                <dd className="event-detail-tags">
                  {Object.entries(event.tags).map(([key, value]) => (
                    <span key={key} className="chip tag">
                      <span className="tag-key">{key}</span>
                      <span className="tag-value">{typeof value === 'string' ? value : JSON.stringify(value)}</span>
                    </span>
                  ))}
                </dd>
              </>
            )}
            {href && (
              <>
                <dt>Link</dt>
                <dd className="event-detail-url">{href}</dd>
              </>
            )}
            <dt>Event id</dt>
            <dd className="mono">{event.id}</dd>
          </dl>
          {metadataText !== null && (
            <section className="event-detail-metadata" aria-label="Metadata">
              <div className="event-detail-metadata-head">
                <h4>Metadata</h4>
                <CopyButton text={metadataText} what="metadata" label="Copy JSON" />
              </div>
              <pre className="code json" data-testid="metadata-json">
                {metadataText}
              </pre>
            </section>
          )}
        </div>
      )}
    </Dialog>
  );
}
