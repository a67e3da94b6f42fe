import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';

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
export async function prepareSend(args: string[], env: NodeJS.ProcessEnv, stdin: NodeJS.ReadStream = process.stdin): Promise<SendRequest | BatchSendRequest> {
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
        batch: { type: 'string' },
      },
    });
  } catch (error) {
    throw new SendUsageError(error instanceof Error ? error.message : String(error));
  }
  const { values, positionals } = parsed;
  if (values.batch !== undefined) {
    if (positionals.length > 0) throw new SendUsageError('send --batch takes no title: each line of the file is an event');
    const extra = (['description', 'icon', 'tag', 'notify', 'user'] as const).find((option) => values[option] !== undefined);
    if (extra) throw new SendUsageError(`--${extra} does not go with --batch: put it in the lines`);
    const key = requiredKey(env);
    const defaults = { ...(values.project ? { project: values.project } : {}), ...(values.category ? { category: values.category } : {}) };
    return { url: new URL('api/events/batch', serverUrl(env)).href, key, ...(await readBatch(values.batch, defaults, stdin)) };
  }
  if (positionals.length !== 1) throw new SendUsageError(`send takes one title, got ${positionals.length} argument(s)`);
  if (!values.project) throw new SendUsageError('--project <id> is required');
  if (!values.category) throw new SendUsageError('--category <name> is required');
  const key = requiredKey(env);

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
    description = Buffer.concat(chunks)
      .toString('utf8')
      .replace(/(\r?\n)+$/, '');
  }

  const body: Record<string, unknown> = { project: values.project, category: values.category, title: positionals[0] };
  if (description !== undefined) body.description = description;
  if (values.icon !== undefined) body.icon = values.icon;
  if (values.tag) body.tags = tags;
  if (values.notify) body.notify = true;
  if (values.user !== undefined) body.user_id = values.user;
  return { url: new URL('api/events', serverUrl(env)).href, key, body };
}

function requiredKey(env: NodeJS.ProcessEnv): string {
  const key = env.EVENTLOG_KEY;
  if (!key) throw new SendUsageError('EVENTLOG_KEY is not set: export an API key (eventlog key create <orgId>)');
  return key;
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
 * Sends the event (or, with --batch, the events: sendBatch); answers the created event object, or
 * throws with the server's `error`. A lost connection, 429 or 5xx is retried (0.5, 1, 2 s) with
 * the same Idempotency-Key, so a cron job never logs twice.
 */
export async function send(request: SendRequest | BatchSendRequest): Promise<unknown> {
  return 'events' in request ? sendBatch(request) : post(request.url, request.key, request.body);
}

/** The server's refusal: its `error`, and `index` when a batch's item was refused. */
class ServerRefusal extends Error {
  constructor(
    message: string,
    readonly index: number | undefined,
  ) {
    super(message);
  }
}

/** One POST with its own Idempotency-Key, retried as `send` says; the parsed reply, or a ServerRefusal. */
async function post(url: string, key: string, body: unknown): Promise<unknown> {
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'idempotency-key': randomUUID() };
  const payload = JSON.stringify(body);
  for (let attempt = 1; ; attempt++) {
    let response: Response;
    try {
      response = await fetch(url, { method: 'POST', headers, body: payload, signal: AbortSignal.timeout(15_000) });
    } catch (error) {
      if (attempt >= ATTEMPTS) throw new Error(`cannot reach ${new URL(url).origin}: ${reason(error)}`, { cause: error });
      await sleep(250 * 2 ** attempt);
      continue;
    }
    const text = await response.text();
    if (response.ok) return JSON.parse(text);
    if ((response.status === 429 || response.status >= 500) && attempt < ATTEMPTS) {
      await sleep(250 * 2 ** attempt);
      continue;
    }
    const refusal = serverError(text);
    throw new ServerRefusal(refusal?.error ?? `the server answered HTTP ${response.status}`, refusal?.index);
  }
}

function serverError(text: string): { error: string; index?: number } | undefined {
  try {
    const body = JSON.parse(text) as { error?: unknown; index?: unknown };
    if (typeof body.error !== 'string') return undefined;
    return typeof body.index === 'number' ? { error: body.error, index: body.index } : { error: body.error };
  } catch {
    return undefined;
  }
}

function reason(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  return error.cause instanceof Error ? error.cause.message : error.message;
}

/** `eventlog send --batch FILE|-`: the file's events, each with the line it came from. */
export interface BatchSendRequest {
  url: string;
  key: string;
  events: Array<Record<string, unknown>>;
  /** The line number (from 1) of each event, to name a refused one. */
  lines: number[];
}

/** Events per request: the server's limit for one batch (extensions.md, "Batch ingestion"). */
const BATCH_ITEMS = 1000;

/**
 * Reads one JSON event per line (blank lines skipped) from FILE, or standard input for `-`.
 * `defaults` (`--project`, `--category`) fill what a line leaves out. A line that is not a JSON
 * object is a usage mistake, named by its number, and nothing is sent.
 */
export async function readBatch(
  source: string,
  defaults: Record<string, string>,
  stdin: NodeJS.ReadStream,
): Promise<{ events: Array<Record<string, unknown>>; lines: number[] }> {
  if (source === '-' && stdin.isTTY) throw new SendUsageError('--batch - reads standard input, which is a terminal here: pipe the events in');
  const input = source === '-' ? stdin : createReadStream(source);
  const opened = new Promise<void>((resolve, reject) => {
    input.once('error', reject);
    input.once('readable', resolve);
    input.once('end', resolve);
  });
  await opened.catch((error: unknown) => {
    throw new SendUsageError(`cannot read ${source}: ${error instanceof Error ? error.message : String(error)}`);
  });
  const events: Array<Record<string, unknown>> = [];
  const lines: number[] = [];
  let number = 0;
  for await (const line of createInterface({ input, crlfDelay: Infinity })) {
    number++;
    if (line.trim() === '') continue;
    let event: unknown;
    try {
      event = JSON.parse(line);
    } catch (error) {
      throw new SendUsageError(`line ${number} is not JSON (${error instanceof Error ? error.message : String(error)})`);
    }
    if (!event || typeof event !== 'object' || Array.isArray(event)) throw new SendUsageError(`line ${number} is not a JSON object: one event per line`);
    events.push({ ...defaults, ...event });
    lines.push(number);
  }
  if (events.length === 0) throw new SendUsageError(`${source === '-' ? 'standard input' : source} holds no events: one JSON event per line`);
  return { events, lines };
}

/**
 * Sends the events 1,000 a request, in order, each request all or nothing and retried as `send`
 * is; answers `{events}`, every event created. A refusal names the line of the refused event; the
 * requests before it stay written (the message says how many events), the ones after are not sent.
 */
async function sendBatch(request: BatchSendRequest): Promise<{ events: unknown[] }> {
  const created: unknown[] = [];
  for (let start = 0; start < request.events.length; start += BATCH_ITEMS) {
    try {
      const reply = (await post(request.url, request.key, { events: request.events.slice(start, start + BATCH_ITEMS) })) as { events: unknown[] };
      created.push(...reply.events);
    } catch (error) {
      if (!(error instanceof ServerRefusal)) throw error;
      const line = error.index === undefined ? undefined : request.lines[start + error.index];
      const written = created.length > 0 ? ` (the ${created.length} events before line ${request.lines[start]} were created)` : '';
      throw new Error(`${line === undefined ? '' : `line ${line}: `}${error.message}${written}`, { cause: error });
    }
  }
  return { events: created };
}
