/** A failed call: `status` is the HTTP status (0 when no answer came), `message` the server's `error`. */
export class EventlogError extends Error {
  readonly status: number;
  /** `trackMany`: the refused item's place in the items given; undefined for any other failure. */
  readonly index: number | undefined;

  constructor(status: number, message: string, options?: { cause?: unknown; index?: number }) {
    super(message, options);
    this.name = 'EventlogError';
    this.status = status;
    this.index = options?.index;
  }
}

export interface Transport {
  baseUrl: string;
  token: string;
  fetch: typeof fetch;
  timeoutMs: number;
  /** First backoff delay; doubled on each retry, with jitter. */
  retryDelayMs: number;
  /** Longest wait between attempts, Retry-After included. */
  maxRetryDelayMs: number;
}

interface Call {
  method: 'GET' | 'POST' | 'PATCH';
  path: string;
  query?: Record<string, string | number | boolean | Array<string | number | boolean> | undefined>;
  body?: unknown;
  headers?: Record<string, string>;
  /** Safe to send again: an idempotent call, or one carrying an Idempotency-Key. */
  retry: boolean;
  /** A batch's first item's place among every item given: a refusal's `index` is counted from it. */
  indexFrom?: number;
}

/** Every attempt in all: the first and at most three retries (extensions.md, "Client library"). */
const MAX_ATTEMPTS = 4;

/** Sends the call, retrying network errors, 429 and 5xx when `retry` allows; answers the parsed JSON. */
export async function send<T>(transport: Transport, call: Call): Promise<T> {
  const url = buildUrl(transport.baseUrl, call.path, call.query);
  const init: RequestInit = {
    method: call.method,
    headers: {
      accept: 'application/json',
      authorization: `Bearer ${transport.token}`,
      ...(call.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...call.headers,
    },
    body: call.body === undefined ? undefined : JSON.stringify(call.body),
  };
  const attempts = call.retry ? MAX_ATTEMPTS : 1;
  for (let attempt = 1; ; attempt++) {
    let response: Response;
    try {
      response = await transport.fetch(url, { ...init, signal: AbortSignal.timeout(transport.timeoutMs) });
    } catch (error) {
      if (attempt >= attempts) throw new EventlogError(0, `Request failed: ${describe(error)}`, { cause: error });
      await wait(backoff(transport, attempt));
      continue;
    }
    if (response.ok) return (await readJson(response)) as T;
    const retryable = response.status === 429 || response.status >= 500;
    if (!retryable || attempt >= attempts) throw await errorOf(response, call.indexFrom);
    await response.body?.cancel();
    await wait(retryAfter(response, transport) ?? backoff(transport, attempt));
  }
}

/** Repeated parameters (`tag`) become repeated keys: `tag=a:1&tag=b:2`. */
export function buildUrl(baseUrl: string, path: string, query: Call['query'] = {}): string {
  const url = new URL(path, baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`);
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) url.searchParams.append(name, String(item));
  }
  return url.href;
}

function backoff(transport: Transport, attempt: number): number {
  const exponential = transport.retryDelayMs * 2 ** (attempt - 1);
  return Math.min(transport.maxRetryDelayMs, exponential / 2 + Math.random() * (exponential / 2));
}

/** Retry-After in seconds or as an HTTP date, capped; undefined when absent or unreadable. */
function retryAfter(response: Response, transport: Transport): number | undefined {
  const header = response.headers.get('retry-after');
  if (!header) return undefined;
  const seconds = Number(header);
  const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(header) - Date.now();
  return Number.isNaN(ms) ? undefined : Math.min(transport.maxRetryDelayMs, Math.max(0, ms));
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  return text ? JSON.parse(text) : undefined;
}

async function errorOf(response: Response, indexFrom: number | undefined): Promise<EventlogError> {
  let message = `HTTP ${response.status}`;
  let index: number | undefined;
  try {
    const body = (await readJson(response)) as { error?: unknown; index?: unknown } | undefined;
    if (body && typeof body.error === 'string') message = body.error;
    if (indexFrom !== undefined && typeof body?.index === 'number') index = indexFrom + body.index;
  } catch {
    // Not JSON (a proxy's error page): the status says enough.
  }
  return new EventlogError(response.status, message, { index });
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    const cause = (error as { cause?: unknown }).cause;
    return cause instanceof Error ? `${error.message} (${cause.message})` : error.message;
  }
  return String(error);
}

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A random Idempotency-Key. */
export function randomKey(): string {
  const crypto = globalThis.crypto;
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  // randomUUID needs a secure context in browsers; getRandomValues does not.
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, '0')).join('');
}
