/**
 * What `Services` (context.ts) exposes of the long-lived feature services, and the records they
 * trade in. The feature classes satisfy these interfaces by their shape and services.ts, the
 * composition root, hands them in, so context.ts and http/ import no feature
 * (docs/architecture.md).
 */

/** What an API key may do (extensions.md, "Scoped API keys"): `full` is what every key could do before. */
export type KeyAccess = 'full' | 'ingest' | 'read';

/** An event that passed every rule, in the form the insert statement takes (events/validateEventInput.ts). */
export interface EventDraft {
  projectId: string;
  category: string;
  title: string;
  description: string | null;
  icon: string | null;
  /** Serialized JSON exactly as it will be stored and searched. */
  tags: string | null;
  metadata: string | null;
  url: string | null;
  userId: string | null;
  notify: boolean;
  /** Integer microseconds since the epoch; null means "now" at commit. */
  createdAtMicros: bigint | null;
  /** Set only on the events an alert creates (features/alerts/), which no alert counts. */
  alertId?: string;
}

/** A draft on its way to the group commit, with the organization it is written for. */
type IngestDraft = EventDraft & { organizationId: string };

/**
 * The new row (`ord`: the draft's index in its batch); `{ refused }` when the organization's cap
 * or id space refused it; null for a project not the organization's.
 */
type IngestOutcome = { ord: number; id: number; createdMicros: string } | { refused: 'cap' | 'ids' } | null;

/**
 * A client's batch, written whole (events/ingestBatcher.ts, insertWhole): its rows (`ord`: the
 * draft's index) and the drafts whose project was gone at the write; or the refusal of all of it.
 */
type WholeOutcome = { inserted: Array<{ ord: number; id: number; createdMicros: string }>; missing: number[] } | { refused: 'cap' | 'ids' };

/** Group commit for event writes (events/ingestBatcher.ts). */
export interface EventIngest {
  /** Resolves after commit. */
  insert(draft: IngestDraft): Promise<IngestOutcome>;
  /** One organization's batch as one statement, all of it under the monthly cap or none; resolves after commit. */
  insertWhole(organizationId: string, drafts: EventDraft[]): Promise<WholeOutcome>;
}

/** The enabled hook a URL token belongs to, as the hook resolver hands it out. */
export interface ActiveHook {
  id: string;
  projectId: string;
  organizationId: string;
  category: string;
  /** The template its bodies are read with unless a request names another. */
  template: string | null;
}

/** Hook URL token → enabled hook, cached (hooks/hookResolver.ts). */
export interface HookTokens {
  /** The enabled hook a URL token belongs to, or null for a malformed, unknown, paused or deleted one. */
  resolve(token: string): Promise<ActiveHook | null>;
  /** Forgets a hook in this process; other processes hear of it through the bus. */
  evict(hookId: string): void;
}

/** Who a bearer key speaks for, and what it may do (extensions.md, "Scoped API keys"). */
export interface KeyPrincipal {
  keyId: string;
  organizationId: string;
  access: KeyAccess;
  /** The projects it may see and write; null: every project of the organization. */
  projects: readonly string[] | null;
  /** Browser origins of an `ingest` key meant for web pages; null otherwise. */
  origins: readonly string[] | null;
}

/** Bearer key → organization, cached (keys/keyAuthenticator.ts). */
export interface ApiKeys {
  /** The key's principal, or null for a malformed, unknown or revoked key. */
  authenticate(plaintext: string): Promise<KeyPrincipal | null>;
  /** Drops a key from this process's cache; other processes hear of it through the bus. */
  evict(keyId: string): void;
  /**
   * Counts an event written with a browser key from `address` (extensions.md: at most 60 a
   * minute). Null while under the limit; otherwise the seconds until the window ends (nothing counted).
   */
  takeBrowserEvent(organizationId: string, address: string, events?: number): Promise<number | null>;
}

/** The body formats a destination may choose (delivery/formats.ts renders them). */
export type DeliveryFormat = 'json' | 'text' | 'embed' | 'email' | 'telegram' | 'ntfy' | 'pushover' | 'teams' | 'googlechat' | 'matrix' | 'gotify';

/** A webhook delivery whose lease this process holds, with what sending it needs. */
export interface ClaimedDelivery {
  organizationId: string;
  id: string;
  leaseToken: string;
  /** 0 for a Test delivery. */
  eventId: number;
  webhookId: string;
  body: string;
  /** Attempts already made. */
  attempts: number;
  maxAttempts: number;
  destinationId: string;
  url: string;
  format: DeliveryFormat;
  secret: string | null;
  enabled: boolean;
}

/** Outgoing webhooks and web push (delivery/deliveryWorker.ts). */
export interface Deliveries {
  /** Attempts a delivery gets, the first included. */
  readonly maxAttempts: number;
  /** How long a claimed delivery stays this process's. */
  readonly leaseMs: number;
  /** Starts claiming and sending (the server does; tests start workers of their own). */
  start(): void;
  /** Stops claiming and waits for the sends in flight. */
  stop(): Promise<void>;
  /** Runs a pass now, or right after the one running. A no-op unless started. */
  wake(): void;
  /** Sends one leased delivery once and records the attempt. */
  deliver(delivery: ClaimedDelivery): Promise<{ ok: boolean; status: number | null; error: string | null }>;
  /** Notify events not yet fanned out plus pending deliveries and push jobs, of every organization. */
  queueDepth(): Promise<number>;
}

/** Removes deleted projects' rows in the background (projects/projectPurger.ts). */
export interface ProjectPurge {
  /** Purges one deleted project; a second call while one runs joins it. Never rejects. */
  purge(organizationId: string, projectId: string): Promise<void>;
  /** Starts the periodic sweep (the server does; commands and tests need not). */
  start(): void;
  /** Ends the sweep and waits for purges in progress to reach a batch boundary. */
  stop(): Promise<void>;
  /** Purges every project marked deleted (oldest first). */
  sweep(): Promise<void>;
}

/** Backfills the per-day counts of a newly rolled-up tag key (decision 131). */
export interface TagRollups {
  /** Counts the key's events up to where ingest took over; a second call while one runs joins it. Never rejects. */
  backfill(organizationId: string, projectId: string, tagKey: string): Promise<void>;
}

/** One email as the mail transport sends it (email/mailer.ts). */
export interface OutgoingMail {
  to: string[];
  subject: string;
  text: string;
  html: string;
  /** The same on every attempt, so a mail client can tell a repeat. */
  messageId?: string;
  headers?: Record<string, string>;
}

/** What one SMTP attempt came to: `status` is the SMTP reply code, null when no reply came. */
export interface MailResult {
  status: number | null;
  error: string | null;
  /** A 4xx or a refused, dropped or timed-out connection: another attempt may succeed. */
  retryable: boolean;
  response: string | null;
  durationMs: number;
}

/** The process's one pooled SMTP transport (email/mailer.ts); not `configured` without SMTP_URL. */
export interface Mail {
  readonly configured: boolean;
  send(mail: OutgoingMail): Promise<MailResult>;
}

/** The durable mail queue (email/mailQueue.ts): rows in `mail_jobs`, sent by a started queue. */
export interface MailQueueing {
  /** Starts sending (the server does; tests that expect mail start it). */
  start(): void;
  /** A pass now, or right after the one running: a verb that queued mail wakes it. */
  wake(): void;
  stop(): Promise<void>;
}
