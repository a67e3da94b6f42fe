import { Fragment, useCallback, useEffect, useState } from 'react';
import { Link } from 'wouter';
import { describeError } from '../../api.ts';
import { Dialog } from '../../components/Dialog.tsx';
import { RelativeTime } from '../../components/Time.tsx';
import { Skeleton } from '../../components/Skeleton.tsx';
import { useToast } from '../../components/Toasts.tsx';
import * as api from '../../generated/index.ts';
import type { DeliveryPage, Destination } from '../../types.ts';
import './deliveryLog.css';

/** A destination's recent deliveries with every attempt, and a Replay button for each. */
export function DeliveryLog({ destination, onClose }: { destination: Destination | null; onClose: () => void }) {
  const toast = useToast();
  const [page, setPage] = useState<DeliveryPage | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loadingMore, setLoadingMore] = useState(false);
  const id = destination?.id;

  const load = useCallback(async () => {
    if (!id) return;
    try {
      setPage(await api.listDeliveries({ path: { destinationId: id } }));
      setError(null);
    } catch (failure) {
      setError(describeError(failure));
    }
  }, [id]);

  useEffect(() => {
    setPage(null);
    setError(null);
    void load();
  }, [load]);

  const more = async () => {
    if (!id || !page?.nextCursor) return;
    setLoadingMore(true);
    try {
      const next = await api.listDeliveries({ path: { destinationId: id }, query: { cursor: page.nextCursor } });
      setPage({ deliveries: [...page.deliveries, ...next.deliveries], nextCursor: next.nextCursor });
    } catch (failure) {
      toast.error(failure, 'Could not load more deliveries');
    } finally {
      setLoadingMore(false);
    }
  };

  const replay = async (deliveryId: string) => {
    if (!id) return;
    try {
      await api.replayDelivery({ path: { destinationId: id, deliveryId } });
      toast.success('Delivery replayed');
      setTimeout(() => void load(), 1500);
    } catch (failure) {
      toast.error(failure, 'Could not replay the delivery');
    }
  };

  return (
    <Dialog open={destination !== null} title={`Attempt log · ${destination?.name ?? ''}`} onClose={onClose} wide>
      <div className="section-head">
        <p className="muted small">The most recent deliveries first.</p>
        <button type="button" className="button button-small" onClick={() => void load()}>
          Refresh
        </button>
      </div>
      {error && (
        <p className="banner banner-error" role="alert">
          Could not load the attempt log: {error}
        </p>
      )}
      {!page && !error && <Skeleton rows={2} what="deliveries" />}
      {page?.deliveries.length === 0 && <p className="muted">No deliveries yet. Send a notify event or press Test.</p>}
      <ul className="delivery-list">
        {page?.deliveries.map((delivery) => (
          <li key={delivery.id} className="delivery">
            <div className="row-head">
              <span className={`status status-${delivery.status}`}>{delivery.status}</span>
              <DeliveredEvent eventId={delivery.eventId} title={delivery.eventTitle} />
              {delivery.webhookId && (
                <code className="small" title="webhook-id header">
                  {delivery.webhookId}
                </code>
              )}
              <span className="muted small">
                <RelativeTime iso={delivery.createdAt} />
              </span>
              <button type="button" className="button button-small push-right" onClick={() => void replay(delivery.id)}>
                Replay
              </button>
            </div>
            {delivery.attempts.length > 0 && (
              <table className="table attempts">
                <thead>
                  <tr>
                    <th scope="col">Attempt</th>
                    <th scope="col">When</th>
                    <th scope="col">HTTP</th>
                    <th scope="col" className="num">
                      Time
                    </th>
                    <th scope="col">Error or answer</th>
                  </tr>
                </thead>
                <tbody>
                  {delivery.attempts.map((attempt, index) => (
                    <tr key={`${attempt.at}-${index}`}>
                      <td>{index + 1}</td>
                      <td>
                        <RelativeTime iso={attempt.at} />
                      </td>
                      <td>{attempt.status ?? '—'}</td>
                      <td className="num">{attempt.durationMs === null ? '—' : `${attempt.durationMs} ms`}</td>
                      <td className="attempt-outcome">
                        {attempt.error && <WithAddresses text={attempt.error} />}
                        {attempt.note && <p className="attempt-note">{attempt.note}</p>}
                        {attempt.response && (
                          <code className="answer" title={attempt.response}>
                            <WithAddresses text={attempt.response.length > 120 ? `${attempt.response.slice(0, 120)}…` : attempt.response} />
                          </code>
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </li>
        ))}
      </ul>
      {page?.nextCursor && (
        <button type="button" className="button" disabled={loadingMore} onClick={() => void more()}>
          {loadingMore ? 'Loading…' : 'Older deliveries'}
        </button>
      )}
    </Dialog>
  );
}

/** What a delivery sent: a link to its event in the feed, by title when the event still exists. */
function DeliveredEvent({ eventId, title }: { eventId: number; title: string | null }) {
  if (!eventId) return <span className="delivery-event">Test delivery</span>;
  return (
    <Link href={`/?event=${eventId}`} className="delivery-event" title={`Open event #${eventId} in the feed`}>
      {title ?? `Event #${eventId} (deleted)`}
    </Link>
  );
}

/** host:port, or a URL: never broken in the middle (say of the port) by the column's wrapping. */
const ADDRESS = /(\b[a-z][a-z0-9+.-]*:\/\/\S+|\[[0-9a-f:.]+\](?::\d{1,5})?|\b(?:\d{1,3}(?:\.\d{1,3}){3}|localhost|[a-z0-9-]+(?:\.[a-z0-9-]+)+):\d{1,5}\b)/gi;

/**
 * An error text whose addresses are kept whole: each is one unbreakable piece, cut with an
 * ellipsis when it is wider than the column, with the full address in its tooltip.
 */
function WithAddresses({ text }: { text: string }) {
  const parts = text.split(ADDRESS);
  return (
    <>
      {parts.map((part, index) =>
        index % 2 === 1 ? (
          <span key={index} className="address" title={part}>
            {part}
          </span>
        ) : (
          <Fragment key={index}>{part}</Fragment>
        ),
      )}
    </>
  );
}
