import { EventlogError, type Transport, randomKey, send } from './request.js';

// A drop-in for LogSnag's Node client, `@logsnag/node` 1.0.1 (extensions.md, "Drop-in for
// LogSnag's client"): the same constructor, methods, arguments and results, speaking to
// Eventlog's LogSnag-compatible `/v1` routes. Moving is a change of import and a `baseUrl`.

/** Tag and property keys are lower case, as LogSnag's types say. */
type TagKey = Lowercase<string>;
export type Tags = Record<TagKey, string | number | boolean>;
export type Parser = 'markdown' | 'text';

export interface TrackOptions {
  channel: string;
  event: string;
  description?: string;
  user_id?: string;
  icon?: string;
  tags?: Tags;
  notify?: boolean;
  parser?: Parser;
  /** A Date, Unix seconds or Unix milliseconds (whichever is nearer now, as LogSnag reads it). */
  timestamp?: number | Date;
}

export interface IdentifyOptions {
  user_id: string;
  properties: Record<TagKey, string | number | boolean>;
}

export type GroupProperties = Record<TagKey, string | number | boolean>;
export type GroupOptions = { group_id: string; user_id: string } | { group_id: string; user_id: string | undefined; properties: GroupProperties };

export interface InsightTrackOptions {
  title: string;
  icon?: string;
  value: string | boolean | number;
}

export interface InsightIncrementOptions {
  title: string;
  icon?: string;
  value: number;
}

export interface LogSnagOptions {
  /** An Eventlog API key (`ev_...`); a browser's must be an ingest key with origins. */
  token: string;
  /** The project's id or its exact name. */
  project: string;
  disableTracking?: boolean;
  /** Where Eventlog answers; default `http://localhost:3000`. */
  baseUrl?: string;
}

/** LogSnag's rule for `timestamp`: a Date or milliseconds become whole Unix seconds. */
function unixSeconds(timestamp: number | Date | undefined): number | undefined {
  if (timestamp === undefined) return undefined;
  const value = timestamp instanceof Date ? timestamp.getTime() : timestamp;
  const readAsMillis = Math.abs(Date.now() - value) < Math.abs(Date.now() - value * 1000);
  return readAsMillis ? Math.floor(value / 1000) : value;
}

export class LogSnag {
  readonly #project: string;
  readonly #transport: Transport;
  #disabled: boolean;

  constructor({ token, project, disableTracking = false, baseUrl = 'http://localhost:3000' }: LogSnagOptions) {
    this.#project = project;
    this.#disabled = disableTracking;
    this.#transport = { baseUrl, token, fetch: (input, init) => globalThis.fetch(input, init), timeoutMs: 10_000, retryDelayMs: 500, maxRetryDelayMs: 30_000 };
  }

  /** Every call answers `true` without sending anything (development, tests). */
  disableTracking(): void {
    this.#disabled = true;
  }

  enableTracking(): void {
    this.#disabled = false;
  }

  isTrackingDisabled(): boolean {
    return this.#disabled;
  }

  getProject(): string {
    return this.#project;
  }

  get insight(): { track: (options: InsightTrackOptions) => Promise<boolean>; increment: (options: InsightIncrementOptions) => Promise<boolean> } {
    return { track: (options) => this.#insightTrack(options), increment: (options) => this.#insightIncrement(options) };
  }

  /**
   * Logs an event (`POST /v1/log`). One random Idempotency-Key per call, reused by its retries,
   * so a retry after a lost reply never logs it twice. Answers true; a refusal throws.
   */
  async track(options: TrackOptions): Promise<boolean> {
    if (this.#disabled) return true;
    const body = { ...options, timestamp: unixSeconds(options.timestamp), project: this.#project };
    return this.#post('POST', 'v1/log', body, { 'idempotency-key': randomKey() }, true);
  }

  /** Merges properties into the user's (`POST /v1/identify`). */
  async identify(options: IdentifyOptions): Promise<boolean> {
    if (this.#disabled) return true;
    return this.#post('POST', 'v1/identify', { ...options, project: this.#project }, {}, true);
  }

  /** Adds the user to the group and/or merges the group's properties (`POST /v1/group`). */
  async group(options: GroupOptions): Promise<boolean> {
    if (this.#disabled) return true;
    return this.#post('POST', 'v1/group', { ...options, project: this.#project }, {}, true);
  }

  async #insightTrack(options: InsightTrackOptions): Promise<boolean> {
    if (this.#disabled) return true;
    return this.#post('POST', 'v1/insight', { ...options, project: this.#project }, {}, true);
  }

  /** Never retried: a retry after a lost reply could add twice. */
  async #insightIncrement(options: InsightIncrementOptions): Promise<boolean> {
    if (this.#disabled) return true;
    const body = { project: this.#project, icon: options.icon, title: options.title, value: { $inc: options.value } };
    return this.#post('PATCH', 'v1/insight', body, {}, false);
  }

  async #post(method: 'POST' | 'PATCH', path: string, body: unknown, headers: Record<string, string>, retry: boolean): Promise<boolean> {
    await send(this.#transport, { method, path, body, headers, retry });
    return true;
  }
}

/** LogSnag's error class name, for `catch` blocks written against `@logsnag/node`: Eventlog's error (status, message). */
export { EventlogError as HTTPResponseError };
