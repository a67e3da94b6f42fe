import type { Announcement } from './announcements.ts';
import type { Sql } from './client.ts';
import type { EvictionFeed } from '../lib/evictingCache.ts';

export type { Announcement } from './announcements.ts';

/** The one NOTIFY channel every process listens on. */
const CHANNEL = 'eventlog';

/**
 * Largest notification payload the bus makes, in bytes: PostgreSQL refuses one of 8000 or more.
 * A notification carries a JSON array of announcements (docs/decisions/166-packed-announcements.md).
 */
const MAX_PAYLOAD_BYTES = 7900;

/** An announcement waiting to be sent: its JSON text, and whether it may share a notification. */
interface PendingAnnouncement {
  text: string;
  packable: boolean;
}

/**
 * The payloads of the pending announcements, in order: each run of packable ones as JSON arrays
 * of as many as fit in MAX_PAYLOAD_BYTES, every other one alone, as its JSON object.
 */
export function packAnnouncements(pending: readonly PendingAnnouncement[]): string[] {
  const payloads: string[] = [];
  let members: string[] = [];
  let bytes = 2;
  const flush = () => {
    if (members.length > 0) payloads.push(`[${members.join(',')}]`);
    members = [];
    bytes = 2;
  };
  for (const { text, packable } of pending) {
    if (!packable) {
      flush();
      payloads.push(text);
      continue;
    }
    const size = Buffer.byteLength(text) + 1;
    if (bytes + size > MAX_PAYLOAD_BYTES) flush();
    members.push(text);
    bytes += size;
  }
  flush();
  return payloads;
}

type Listener = (announcement: Announcement) => void;

/**
 * Announces writes with PostgreSQL NOTIFY and hands every process's announcements to local
 * listeners (live feeds, the API key cache). Announcing is best-effort by contract: a failure is
 * logged and never fails the write that triggered it.
 */
export class Bus {
  private readonly listeners = new Set<Listener>();
  private readonly resumeListeners = new Set<() => void>();
  private unlisten: (() => Promise<void>) | undefined;
  /** Announcements made in this turn of the event loop, sent together by one query. */
  private pending: PendingAnnouncement[] = [];
  private sending: Promise<void> | undefined;

  constructor(
    private readonly sql: Sql,
    private readonly logError: (error: unknown, message: string) => void,
  ) {}

  async start(): Promise<void> {
    const subscription = await this.sql.listen(CHANNEL, (payload) => this.dispatch(payload));
    this.unlisten = () => subscription.unlisten();
  }

  /**
   * LISTEN again after the database came back. The driver re-listens by itself when the listening
   * connection closes, but only once: when the database is still down at that moment the channel
   * stays silent, so the health monitor calls this when the database answers again.
   */
  async relisten(): Promise<void> {
    if (!this.unlisten) return;
    await this.unlisten().catch(() => {});
    this.unlisten = undefined;
    await this.start();
    for (const listener of this.resumeListeners) listener();
  }

  /**
   * Told after the bus listens again: announcements made while it was not listening are lost, so
   * whatever was kept up to date by them (caches of keys and hooks) must not be trusted.
   */
  onResume(listener: () => void): () => void {
    this.resumeListeners.add(listener);
    return () => this.resumeListeners.delete(listener);
  }

  async close(): Promise<void> {
    await this.send();
    await this.unlisten?.().catch(() => {});
    this.unlisten = undefined;
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * A cache's eviction feed (lib/evictingCache.ts): the `id` of every announcement of `types`
   * (a revoked key, a paused hook), and a reset after listening again, since an eviction
   * announced while the bus was not listening is lost.
   */
  evictionFeed(types: ReadonlySet<string>): EvictionFeed {
    return {
      onEvict: (listener) =>
        this.subscribe((announcement) => {
          if (types.has(announcement.type) && announcement.id !== undefined) listener(String(announcement.id));
        }),
      onReset: (listener) => this.onResume(listener),
    };
  }

  /**
   * Fire and forget: the caller has already committed its write. Announcements made in the same
   * turn of the event loop go out in one query: a group-commit batch resolves all of its requests
   * at once, and a query (and a commit) per event was the largest server cost of ingest
   * (docs/decisions/037-coalesced-announcements.md). The query packs new events' announcements
   * into as few notifications as fit (decision 166): every notification costs the database, and
   * every listening process, a message.
   */
  announce(announcements: Announcement | Announcement[]): void {
    const list = Array.isArray(announcements) ? announcements : [announcements];
    if (list.length === 0) return;
    if (this.pending.length === 0) setImmediate(() => void this.send());
    // Only new events are packed: every other announcement goes alone, in the form a process from
    // before decision 166 understands, so a key revoked during an upgrade is heard everywhere.
    for (const announcement of list) this.pending.push({ text: JSON.stringify(announcement), packable: announcement.type === 'event.created' });
  }

  /** Sends what is pending; resolves once the query has ended (successfully or not). */
  private async send(): Promise<void> {
    const announced = this.pending;
    this.pending = [];
    if (announced.length > 0) {
      const payloads = packAnnouncements(announced);
      const previous = this.sending;
      this.sending = (async () => {
        await previous;
        await this.sql`SELECT pg_notify(${CHANNEL}, payload) FROM json_array_elements_text(${JSON.stringify(payloads)}::text::json) AS payload`.then(
          () => {},
          (error: unknown) => this.logError(error, 'announcing a write failed'),
        );
      })();
    }
    await this.sending;
  }

  private dispatch(payload: string): void {
    let announced: Announcement | Announcement[];
    try {
      announced = JSON.parse(payload) as Announcement | Announcement[];
    } catch {
      return;
    }
    // A single object: any announcement but a new event's, and all of a process from before decision 166.
    if (Array.isArray(announced)) for (const announcement of announced) this.deliver(announcement);
    else this.deliver(announced);
  }

  private deliver(announcement: Announcement): void {
    for (const listener of this.listeners) {
      try {
        listener(announcement);
      } catch (error) {
        this.logError(error, 'a bus listener failed');
      }
    }
  }
}
