import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';

/** A usage mistake or a missing setting: exit 2, nothing sent. */
export class SendUsageError extends Error {}

export interface SendRequest {
  url: string;
  key: string;
  body: Record<string, unknown>;
}

/**
 * `eventlog send <title> --project <id> --category <name> ...` (operations.md / extensions.md,
 * "Command line"): the arguments and the environment become one POST /api/events.
 * `--description -` reads the description from standard input when it is not a terminal.
 */
export async function prepareSend(args: string[], env: NodeJS.ProcessEnv, stdin: NodeJS.ReadStream = process.stdin): Promise<SendRequest> {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      strict: true,
      options: {
        project: { type: 'string' },
        category: { type: 'string' },
        description: { type: 'string' },
        icon: { type: 'string' },
        tag: { type: 'string', multiple: true },
        notify: { type: 'boolean' },
        user: { type: 'string' },
      },
    });
  } catch (error) {
    throw new SendUsageError(error instanceof Error ? error.message : String(error));
  }
  const { values, positionals } = parsed;
  if (positionals.length !== 1) throw new SendUsageError(`send takes one title, got ${positionals.length} argument(s)`);
  if (!values.project) throw new SendUsageError('--project <id> is required');
  if (!values.category) throw new SendUsageError('--category <name> is required');
  const key = env.EVENTLOG_KEY;
  if (!key) throw new SendUsageError('EVENTLOG_KEY is not set: export an API key (eventlog key create <orgId>)');

  const tags: Record<string, string> = {};
  for (const tag of values.tag ?? []) {
    const at = tag.indexOf('=');
    if (at <= 0) throw new SendUsageError(`--tag takes key=value, got ${JSON.stringify(tag)}`);
    tags[tag.slice(0, at)] = tag.slice(at + 1);
  }

  let description = values.description;
  if (description === '-') {
    if (stdin.isTTY) throw new SendUsageError('--description - reads standard input, which is a terminal here: pipe the text in');
    const chunks: Buffer[] = [];
    for await (const chunk of stdin) chunks.push(chunk as Buffer);
    description = Buffer.concat(chunks).toString('utf8').replace(/(\r?\n)+$/, '');
  }

  const body: Record<string, unknown> = { project: values.project, category: values.category, title: positionals[0] };
  if (description !== undefined) body.description = description;
  if (values.icon !== undefined) body.icon = values.icon;
  if (values.tag) body.tags = tags;
  if (values.notify) body.notify = true;
  if (values.user !== undefined) body.user_id = values.user;
  return { url: new URL('api/events', serverUrl(env)).href, key, body };
}

/** EVENTLOG_URL, else BASE_URL, else http://localhost:$PORT (PORT defaulting to 3000). */
function serverUrl(env: NodeJS.ProcessEnv): string {
  const base = env.EVENTLOG_URL || env.BASE_URL || `http://localhost:${env.PORT || 3000}`;
  try {
    return new URL(base.endsWith('/') ? base : `${base}/`).href;
  } catch {
    throw new SendUsageError(`EVENTLOG_URL is not a URL: ${JSON.stringify(base)}`);
  }
}

const ATTEMPTS = 4;

/**
 * Sends the event; answers the created event object, or throws with the server's `error`. A lost
 * connection, 429 or 5xx is retried (0.5, 1, 2 s) with the same Idempotency-Key, so a cron job
 * never logs twice.
 */
export async function send(request: SendRequest): Promise<unknown> {
  const headers = { authorization: `Bearer ${request.key}`, 'content-type': 'application/json', 'idempotency-key': randomUUID() };
  for (let attempt = 1; ; attempt++) {
    let response: Response;
    try {
      response = await fetch(request.url, { method: 'POST', headers, body: JSON.stringify(request.body), signal: AbortSignal.timeout(15_000) });
    } catch (error) {
      if (attempt >= ATTEMPTS) throw new Error(`cannot reach ${new URL(request.url).origin}: ${reason(error)}`, { cause: error });
      await sleep(250 * 2 ** attempt);
      continue;
    }
    const text = await response.text();
    if (response.ok) return JSON.parse(text);
    if ((response.status === 429 || response.status >= 500) && attempt < ATTEMPTS) {
      await sleep(250 * 2 ** attempt);
      continue;
    }
    throw new Error(serverError(text) ?? `the server answered HTTP ${response.status}`);
  }
}

function serverError(text: string): string | undefined {
  try {
    const body = JSON.parse(text) as { error?: unknown };
    return typeof body.error === 'string' ? body.error : undefined;
  } catch {
    return undefined;
  }
}

function reason(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  return error.cause instanceof Error ? error.cause.message : error.message;
}
