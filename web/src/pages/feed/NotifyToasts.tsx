import { BellIcon } from '../../components/Icons.tsx';
import type { EventItem } from '../../types.ts';
import { eventLink } from './feedLinks.ts';
import './feed.css';

/** Toasts for notify events that arrive while the feed is open; each opens its event. */
export function NotifyToasts({ events, onOpen, onDismiss }: { events: EventItem[]; onOpen: (event: EventItem) => void; onDismiss: (id: number) => void }) {
  return (
    <div className="notify-toasts" role="status" aria-live="polite">
      {events.map((event) => (
        <div key={event.id} className="notify-toast" data-testid="notify-toast">
          <span className="notify-toast-icon" aria-hidden="true">
            {event.icon || <BellIcon />}
          </span>
          {/* A real link (it can open in a new tab); a plain click opens the detail in place. */}
          <a
            href={eventLink(event)}
            className="notify-toast-open"
            onClick={(click) => {
              if (click.button !== 0 || click.metaKey || click.ctrlKey || click.shiftKey) return;
              click.preventDefault();
              onDismiss(event.id);
              onOpen(event);
            }}
          >
            <span className="notify-toast-category">#{event.category}</span>
            <span className="notify-toast-title">{event.title}</span>
          </a>
          <button type="button" className="icon-button" aria-label="Dismiss notification" onClick={() => onDismiss(event.id)}>
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
