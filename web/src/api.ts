/**
 * The one way the dashboard talks to the server: same-origin cookies, the CSRF token on every
 * state-changing request, and every failure turned into an ApiError carrying the server's words.
 */

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

let csrfToken: string | null = null;
let onUnauthorized: (() => void) | null = null;

/** Kept in memory only: the session responses hand it over, a reload asks GET /api/session again. */
export function setCsrfToken(token: string | null): void {
  csrfToken = token;
}

/** Called when a signed-in request answers 401, so the app can ask the person to sign in again. */
export function setUnauthorizedHandler(handler: (() => void) | null): void {
  onUnauthorized = handler;
}

export function csrfHeaders(): Record<string, string> {
  return csrfToken ? { 'x-csrf-token': csrfToken } : {};
}

type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

interface RequestOptions {
  body?: unknown;
  signal?: AbortSignal;
  /** The session and sign-in calls expect 401 and handle it themselves. */
  quiet401?: boolean;
}

async function request<T>(method: Method, path: string, options: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (method !== 'GET') Object.assign(headers, csrfHeaders());
  let body: string | undefined;
  if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  let response: Response;
  try {
    response = await fetch(path, { method, headers, body, credentials: 'same-origin', signal: options.signal });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(0, 'The server could not be reached. Check your connection and try again.');
  }
  if (!response.ok) {
    const message = await errorMessage(response);
    if (response.status === 401 && !options.quiet401) onUnauthorized?.();
    throw new ApiError(response.status, message);
  }
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

/** The server's `{error}` text, or a plain description when the body is not one. */
export async function errorMessage(response: Response): Promise<string> {
  const text = await response.text().catch(() => '');
  return messageFromBody(response.status, text);
}

export function messageFromBody(status: number, text: string): string {
  try {
    const parsed = JSON.parse(text) as unknown;
    if (parsed && typeof parsed === 'object' && typeof (parsed as { error?: unknown }).error === 'string') {
      return (parsed as { error: string }).error;
    }
  } catch {
    // not JSON: fall through to the status text
  }
  if (status === 404) return 'Not found (404). This part of the server may not be available.';
  return `The server answered ${status}${text ? `: ${text.slice(0, 200)}` : ''}`;
}

export type CallOptions = Pick<RequestOptions, 'signal' | 'quiet401'>;

/**
 * One operation of the OpenAPI document, called through the generated `api.<operationId>()`
 * (web/src/generated/): `template` is its path with `{name}` for each path parameter.
 */
export function call<T>(method: string, template: string, args: { path?: object; query?: object; body?: unknown }, options: CallOptions = {}): Promise<T> {
  const values = (args.path ?? {}) as Record<string, string | number>;
  const filled = template.replace(/\{(\w+)\}/g, (_match, name: string) => encodeURIComponent(String(values[name])));
  const url = args.query ? withQuery(filled, args.query as Record<string, QueryValue>) : filled;
  return request<T>(method as Method, url, { ...options, ...(args.body === undefined ? {} : { body: args.body }) });
}

type QueryValue = string | number | undefined | null | ReadonlyArray<string>;

/** Builds `path?a=b` leaving out empty values; an array repeats its key (`tag=a&tag=b`). */
export function withQuery(path: string, query: Record<string, QueryValue>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (Array.isArray(value)) for (const item of value as ReadonlyArray<string>) params.append(key, item);
    else if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

export function describeError(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}

export function isAbort(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}
