import type {
  CreateAlertBody,
  CreateAlertResponse,
  CreateEventBody,
  CreateEventResponse,
  CreateEventsResponse,
  GetChartsResponse,
  IdentifyUserResponse,
  IncrementInsightBody,
  IncrementInsightResponse,
  ListEventsQuery,
  ListAlertHistoryResponse,
  ListEventsResponse,
  UpdateAlertBody,
  QueryFunnelResponse,
  UpsertInsightBody,
  UpsertInsightResponse,
} from './generated.js';
import { type Transport, randomKey, send } from './request.js';

export { EventlogError } from './request.js';
export { LogSnag, HTTPResponseError } from './logsnag.js';
export type { LogSnagOptions, GroupOptions, IdentifyOptions, InsightIncrementOptions, InsightTrackOptions } from './logsnag.js';
export type { TrackOptions as LogSnagTrackOptions, GroupProperties, Parser, Tags } from './logsnag.js';

/** An alert as the server returns it (extensions.md, "Alerts"). */
export type EventlogAlert = CreateAlertResponse;
/** One change of an alert's state. */
export type AlertTransition = ListAlertHistoryResponse['transitions'][number];

/** An event as the server returns it. */
export type EventlogEvent = CreateEventResponse;

export interface EventlogOptions {
  /** An API key (`ev_...`). Required unless `disabled`. */
  token?: string;
  /** The project id every call writes to and reads from. */
  project: string;
  /** Where the server answers; default `http://localhost:3000`. */
  baseUrl?: string;
  /** Every call becomes a no-op that sends nothing (tests, local development). */
  disabled?: boolean;
  /** Per attempt; default 10 000 ms. A timed-out attempt is retried like a network error. */
  timeoutMs?: number;
  /** First backoff delay, doubled each retry; default 500 ms. */
  retryDelayMs?: number;
  /** Longest wait between attempts, `Retry-After` included; default 30 000 ms. */
  maxRetryDelayMs?: number;
  /** Another fetch implementation; default the global `fetch`. */
  fetch?: typeof fetch;
}

export interface TrackOptions {
  category: string;
  title: string;
  description?: string | null;
  icon?: string | null;
  tags?: Record<string, string | number | boolean> | null;
  notify?: boolean;
  /** The user of your application this event belongs to. */
  userId?: string | null;
  url?: string | null;
  metadata?: CreateEventBody['metadata'];
  /** When it happened: a Date, or Unix seconds; default now. */
  timestamp?: Date | number;
}

/** An item of `trackMany`: an event, in the client's project unless it names another (by id or name). */
export type TrackManyItem = TrackOptions & { project?: string };

/** Items per request of `trackMany`: the server's limit for one batch. */
const BATCH_ITEMS = 1000;

export interface InsightOptions {
  title: string;
  value: UpsertInsightBody['value'];
  icon?: string | null;
}

export interface IncrementOptions {
  title: string;
  /** Added to the current value (negative subtracts). */
  value: number;
  icon?: string | null;
}

/** Filters of `events.list`; pages are fetched as the loop asks for them. */
export type ListOptions = Omit<ListEventsQuery, 'project' | 'cursor' | 'limit' | 'favorited' | 'since' | 'until'> & {
  /** Only favorites (true) or only the others (false). */
  favorited?: boolean;
  /** Unix seconds: events created at or after. */
  since?: number;
  /** Unix seconds: events created before. */
  until?: number;
  /** Events per page (1-100); default 50. */
  pageSize?: number;
};

/** One funnel step: events of a category and/or with every given tag (compared as text, as `tag=key:value`). */
export interface FunnelStep {
  category?: string;
  tags?: Record<string, string | number | boolean | null>;
}

export interface FunnelOptions {
  /** 2-10 steps, in the order users go through them. */
  steps: FunnelStep[];
  /** How long after step 1 the later steps may come: 60-31,536,000 seconds; default 7 days. */
  windowSeconds?: number;
  /** Unix seconds: step 1 at or after; default `until` minus 30 days. */
  since?: number;
  /** Unix seconds: step 1 before; default now. */
  until?: number;
}

export interface ChartOptions {
  /** Days up to today (1-36500); default 30. */
  days?: number;
  category?: string;
  /** `key:value` filters; every one must match. */
  tags?: string[];
  /** A tag key: the series are keyed by its values (as text), "(none)" for events without it. */
  groupBy?: string;
}

/** A user's properties: flat values; null removes a property. */
export type UserProperties = Record<string, string | number | boolean | null>;

export class Eventlog {
  readonly #project: string;
  readonly #transport: Transport | null;

  readonly insight = {
    /** Sets an insight's value (creates it when missing). Retried like `track`. */
    track: async (options: InsightOptions): Promise<UpsertInsightResponse | undefined> => {
      if (!this.#transport) return undefined;
      const body: UpsertInsightBody = { project: this.#project, title: options.title, value: options.value, ...optional('icon', options.icon) };
      return send(this.#transport, { method: 'POST', path: 'api/insight', body, retry: true });
    },
    /** Adds to a counter insight in one atomic step. Never retried: a retry could add twice. */
    increment: async (options: IncrementOptions): Promise<IncrementInsightResponse | undefined> => {
      if (!this.#transport) return undefined;
      const body: IncrementInsightBody = { project: this.#project, title: options.title, value: { $inc: options.value }, ...optional('icon', options.icon) };
      return send(this.#transport, { method: 'PATCH', path: 'api/insight', body, retry: false });
    },
  };

  readonly funnels = {
    /** How many users reached each step (`[{users}]`, one per step). A read: retried. */
    query: async (options: FunnelOptions): Promise<QueryFunnelResponse | undefined> => {
      if (!this.#transport) return undefined;
      const body = { project: this.#project, ...options };
      return send(this.#transport, { method: 'POST', path: 'api/funnels', body, retry: true });
    },
  };

  readonly charts = {
    /** Events per day over the last `days` days, keyed by category or, with `groupBy`, by a tag's values. */
    get: async (options: ChartOptions = {}): Promise<GetChartsResponse | undefined> => {
      if (!this.#transport) return undefined;
      const { tags, groupBy, ...rest } = options;
      const query = { ...rest, project: this.#project, tag: tags, groupBy: groupBy === undefined ? undefined : `tag:${groupBy}` };
      return send(this.#transport, { method: 'GET', path: 'api/charts', query, retry: true });
    },
  };

  readonly events = {
    /** Every event matching the filters, newest first, one keyset page at a time. */
    list: (options: ListOptions = {}): AsyncIterableIterator<EventlogEvent> => this.#list(options),
  };

  /** The project's alerts. Reads and idempotent changes are retried; `create` and `delete` are not. */
  readonly alerts = {
    /** Every alert of the project, oldest first. */
    list: async (): Promise<EventlogAlert[]> =>
      this.#transport ? send(this.#transport, { method: 'GET', path: `api/projects/${encodeURIComponent(this.#project)}/alerts`, retry: true }) : [],
    create: async (body: CreateAlertBody): Promise<EventlogAlert | undefined> =>
      this.#transport
        ? send(this.#transport, { method: 'POST', path: `api/projects/${encodeURIComponent(this.#project)}/alerts`, body, retry: false })
        : undefined,
    get: async (alertId: string): Promise<EventlogAlert | undefined> =>
      this.#transport ? send(this.#transport, { method: 'GET', path: `api/alerts/${encodeURIComponent(alertId)}`, retry: true }) : undefined,
    update: async (alertId: string, body: UpdateAlertBody): Promise<EventlogAlert | undefined> =>
      this.#transport ? send(this.#transport, { method: 'PATCH', path: `api/alerts/${encodeURIComponent(alertId)}`, body, retry: true }) : undefined,
    /** Mutes until a Date or Unix seconds; `null` unmutes. */
    mute: async (alertId: string, until: Date | number | null): Promise<EventlogAlert | undefined> => {
      if (!this.#transport) return undefined;
      const body = { until: until instanceof Date ? until.getTime() / 1000 : until };
      return send(this.#transport, { method: 'POST', path: `api/alerts/${encodeURIComponent(alertId)}/mute`, body, retry: true });
    },
    delete: async (alertId: string): Promise<{ id: string; deleted: true } | undefined> =>
      this.#transport ? send(this.#transport, { method: 'POST', path: `api/alerts/${encodeURIComponent(alertId)}/delete`, retry: false }) : undefined,
    /** Every transition of the alert, newest first, one keyset page at a time. */
    history: (alertId: string): AsyncIterableIterator<AlertTransition> => this.#history(alertId),
  };

  constructor(options: EventlogOptions) {
    this.#project = options.project;
    if (options.disabled) {
      this.#transport = null;
      return;
    }
    if (!options.token) throw new TypeError('Eventlog: `token` (an API key) is required unless `disabled` is set');
    if (!options.project) throw new TypeError('Eventlog: `project` (a project id) is required');
    const fetchImpl = options.fetch ?? globalThis.fetch.bind(globalThis);
    this.#transport = {
      baseUrl: options.baseUrl ?? 'http://localhost:3000',
      token: options.token,
      fetch: fetchImpl,
      timeoutMs: options.timeoutMs ?? 10_000,
      retryDelayMs: options.retryDelayMs ?? 500,
      maxRetryDelayMs: options.maxRetryDelayMs ?? 30_000,
    };
  }

  /**
   * Creates an event. One random Idempotency-Key per call, reused by its retries, so a retry
   * after a lost reply never creates a second event.
   */
  async track(options: TrackOptions): Promise<EventlogEvent | undefined> {
    if (!this.#transport) return undefined;
    const headers = { 'idempotency-key': randomKey() };
    return send(this.#transport, { method: 'POST', path: 'api/events', body: this.#eventBody(options), headers, retry: true });
  }

  /**
   * Creates many events: one request per 1,000, in order, each all or nothing and retried as
   * `track` is (its own Idempotency-Key). Resolves to the events in the items' order. A refused
   * request throws an EventlogError whose `index` is the refused item's place in `items`; the
   * requests before it stay written, the ones after it are not sent.
   */
  async trackMany(items: TrackManyItem[]): Promise<EventlogEvent[]> {
    const transport = this.#transport;
    if (!transport) return [];
    const created: EventlogEvent[] = [];
    for (let start = 0; start < items.length; start += BATCH_ITEMS) {
      const events = items.slice(start, start + BATCH_ITEMS).map((item) => this.#eventBody(item));
      const headers = { 'idempotency-key': randomKey() };
      const reply = await send<CreateEventsResponse>(transport, {
        method: 'POST',
        path: 'api/events/batch',
        body: { events },
        headers,
        retry: true,
        indexFrom: start,
      });
      created.push(...reply.events);
    }
    return created;
  }

  #eventBody({ timestamp, userId, project, ...fields }: TrackManyItem): CreateEventBody {
    return {
      project: project ?? this.#project,
      ...fields,
      ...optional('user_id', userId),
      ...optional('created_at', timestamp instanceof Date ? timestamp.getTime() / 1000 : timestamp),
    };
  }

  /** Merges properties into the user's profile (a key set to null is removed). Retried like `track`. */
  async identify(userId: string, properties: UserProperties): Promise<IdentifyUserResponse | undefined> {
    if (!this.#transport) return undefined;
    const body = { project: this.#project, user_id: userId, properties };
    return send(this.#transport, { method: 'POST', path: 'api/identify', body, retry: true });
  }

  async *#history(alertId: string): AsyncIterableIterator<AlertTransition> {
    const transport = this.#transport;
    if (!transport) return;
    let cursor: string | undefined;
    do {
      const page: ListAlertHistoryResponse = await send(transport, {
        method: 'GET',
        path: `api/alerts/${encodeURIComponent(alertId)}/history`,
        query: { cursor },
        retry: true,
      });
      yield* page.transitions;
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
  }

  async *#list(options: ListOptions): AsyncIterableIterator<EventlogEvent> {
    const transport = this.#transport;
    if (!transport) return;
    const { pageSize, ...filters } = options;
    let cursor: string | undefined;
    do {
      const page: ListEventsResponse = await send(transport, {
        method: 'GET',
        path: 'api/events',
        query: { ...filters, project: this.#project, cursor, limit: pageSize },
        retry: true,
      });
      yield* page.events;
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
  }
}

/** `{name: value}` when the caller gave the field, `{}` when not (undefined means "not given"). */
function optional<K extends string, V>(name: K, value: V | undefined): Partial<Record<K, V>> {
  return value === undefined ? {} : ({ [name]: value } as Record<K, V>);
}
