import http from 'node:http';
import https from 'node:https';
import { AddressRefused, guardedLookup, refuseIpLiteral } from './addressGuard.ts';

/** Stored per attempt for the log; a receiver's page of HTML is not worth keeping whole. */
const MAX_RESPONSE_BYTES = 1024;

interface PostOptions {
  /** POST unless the service asks for another (Matrix sends with PUT). */
  method?: 'POST' | 'PUT';
  url: string;
  body: string;
  headers: Record<string, string>;
  timeoutMs: number;
  allowPrivate: boolean;
  /** Extra certificate authorities to trust (a test's self-signed receiver). */
  ca?: string | Buffer;
}

export interface PostResult {
  /** HTTP status, or null when no response arrived. */
  status: number | null;
  /** Why the attempt failed, for a person; null on a 2xx. */
  error: string | null;
  /** False when repeating the request cannot help (the address guard refused it). */
  retryable: boolean;
  /** The first 1 KB of the response body, as text. */
  response: string | null;
  durationMs: number;
  /** What a Retry-After header asked for, in milliseconds. */
  retryAfterMs: number | null;
  /** The response's headers, when one arrived. */
  headers?: http.IncomingHttpHeaders;
}

/**
 * One POST (or PUT), no redirects followed, on a fresh connection whose every resolved address passed the
 * guard (unless private targets are allowed). The whole exchange, connect to last byte kept, is
 * bounded by `timeoutMs`.
 */
export function postOnce(options: PostOptions): Promise<PostResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  let url: URL;
  try {
    url = new URL(options.url);
  } catch {
    return Promise.resolve(failure('The destination URL is not a valid URL', false, elapsed()));
  }
  if (!options.allowPrivate) {
    const refused = refuseIpLiteral(url);
    if (refused) return Promise.resolve(failure(refused.message, false, elapsed()));
  }

  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: PostResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.destroy();
      resolve(result);
    };
    const client = url.protocol === 'https:' ? https : http;
    const request = client.request(
      url,
      {
        method: options.method ?? 'POST',
        agent: false,
        headers: { ...options.headers, 'content-length': String(Buffer.byteLength(options.body)) },
        ...(options.allowPrivate ? {} : { lookup: guardedLookup }),
        ...(options.ca && url.protocol === 'https:' ? { ca: options.ca } : {}),
      },
      (response) => {
        const status = response.statusCode ?? 0;
        const chunks: Buffer[] = [];
        let kept = 0;
        const done = () => {
          const ok = status >= 200 && status < 300;
          finish({
            status,
            error: ok ? null : `The receiver answered HTTP ${status}`,
            retryable: true,
            response: kept > 0 ? Buffer.concat(chunks).subarray(0, MAX_RESPONSE_BYTES).toString('utf8') : null,
            durationMs: elapsed(),
            retryAfterMs: parseRetryAfter(response.headers['retry-after']),
            headers: response.headers,
          });
        };
        response.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          kept += chunk.length;
          if (kept >= MAX_RESPONSE_BYTES) done();
        });
        response.on('end', done);
        response.on('error', done);
      },
    );
    const timer = setTimeout(() => finish(failure(`No response within ${Math.round(options.timeoutMs / 1000)} s`, true, elapsed())), options.timeoutMs);
    request.on('error', (error) => finish(failure(describeNetworkError(error, url), !(error instanceof AddressRefused), elapsed())));
    request.end(options.body);
  });
}

function failure(error: string, retryable: boolean, durationMs: number): PostResult {
  return { status: null, error, retryable, response: null, durationMs, retryAfterMs: null };
}

function describeNetworkError(error: Error, url: URL): string {
  if (error instanceof AddressRefused) return error.message;
  const code = (error as NodeJS.ErrnoException).code;
  switch (code) {
    case 'ECONNREFUSED':
      return `Connection refused by ${url.host}`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `Could not resolve ${url.hostname}`;
    case 'ECONNRESET':
      return `${url.host} closed the connection`;
    case 'ETIMEDOUT':
      return `Connecting to ${url.host} timed out`;
    default:
      return `Could not reach ${url.host}: ${error.message}`;
  }
}

/** Seconds or an HTTP date, as RFC 9110 allows; anything else is ignored. */
function parseRetryAfter(value: string | string[] | undefined): number | null {
  const text = Array.isArray(value) ? value[0] : value;
  if (!text) return null;
  if (/^\s*\d+\s*$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? null : Math.max(0, date - Date.now());
}
