import { createHash, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Ctx } from '../../context.ts';
import { InvalidInput, Conflict } from '../../lib/errors.ts';
import { claimKey, completeKey, deleteExpiredKeys, findKey, releaseKey } from './queries.ts';

/** What a create answered: replayed as it is to every duplicate within the key's lifetime. */
interface CreateReply<T = unknown> {
  status: number;
  body: T;
}

interface IdempotentRequest {
  ctx: Ctx;
  /** Keys belong to one route: `POST /api/events` and `POST /v1/log` do not share them. */
  route: string;
  /** The raw `Idempotency-Key` header, if any. */
  key: string | string[] | undefined;
  /** The parsed request body; a reused key with a different one is a 409. */
  body: unknown;
}

const KEY_LIFETIME_MS = 24 * 60 * 60 * 1000;
/** An in-flight claim older than this was left by a process that died; a retry takes it over. */
const ABANDONED_AFTER_MS = 30_000;
/** How long a duplicate waits for the first request to finish before answering 409. */
const IN_FLIGHT_WAIT_MS = 2_000;
const IN_FLIGHT_POLL_MS = 25;
/** One claim in this many also deletes the organization's expired keys. */
const SWEEP_EVERY = 64;

const PRINTABLE_ASCII = /^[\x20-\x7e]{1,255}$/;

/**
 * Runs `create` at most once per (organization, route, Idempotency-Key) within 24 hours
 * (extensions.md, "Idempotent creates"). Without the header it is a plain call: no query.
 *
 * The key is claimed (inserted, in flight) before the create, so concurrent duplicates find it
 * and wait for the reply instead of creating; the reply is then stored with the key. A create
 * that throws releases the key. A claim left in flight by a crash is taken over after
 * ABANDONED_AFTER_MS (docs/decisions/053-idempotency-keys.md).
 */
export async function withIdempotency<T>(request: IdempotentRequest, create: () => Promise<CreateReply<T>>): Promise<CreateReply<T>> {
  if (request.key === undefined) return create();
  const key = Array.isArray(request.key) ? request.key.join(', ') : request.key;
  if (!PRINTABLE_ASCII.test(key)) throw new InvalidInput('Idempotency-Key must be 1-255 printable ASCII characters');

  const { ctx, route } = request;
  const sql = ctx.services.sql;
  const organizationId = ctx.organizationId;
  const requestHash = hashBody(request.body);
  const claimToken = randomUUID();
  const target = { organizationId, route, key, claimToken };

  const deadline = Date.now() + IN_FLIGHT_WAIT_MS;
  for (;;) {
    const now = new Date();
    const claimed = await claimKey(sql, {
      ...target,
      requestHash,
      now,
      expiredBefore: new Date(now.getTime() - KEY_LIFETIME_MS),
      abandonedBefore: new Date(now.getTime() - ABANDONED_AFTER_MS),
    });
    if (claimed) break;
    const stored = await findKey(sql, organizationId, route, key);
    if (!stored) continue; // released by a failed first attempt: claim it now
    if (!stored.requestHash.equals(requestHash)) {
      throw new Conflict('This Idempotency-Key was used with a different request body');
    }
    if (stored.status !== null) return { status: stored.status, body: stored.body as T };
    if (Date.now() >= deadline) throw new Conflict('A request with this Idempotency-Key is still in progress');
    await sleep(IN_FLIGHT_POLL_MS);
  }

  if (Math.floor(Math.random() * SWEEP_EVERY) === 0) {
    deleteExpiredKeys(sql, organizationId, new Date(Date.now() - KEY_LIFETIME_MS)).catch((error: unknown) =>
      ctx.services.log.warn({ err: error }, 'deleting expired idempotency keys failed'),
    );
  }

  let reply: CreateReply<T>;
  try {
    reply = await create();
  } catch (error) {
    await releaseKey(sql, target).catch((releaseError: unknown) =>
      ctx.services.log.error({ err: releaseError }, 'releasing an idempotency key failed; it is taken over when abandoned'),
    );
    throw error;
  }
  // The event is written: the client gets its reply even if remembering it fails.
  await completeKey(sql, target, reply.status, reply.body).catch((error: unknown) =>
    ctx.services.log.error({ err: error }, 'recording an idempotent reply failed'),
  );
  return reply;
}

/** Bodies are compared as parsed JSON: key order and spacing do not matter. */
function hashBody(body: unknown): Buffer {
  return createHash('sha256').update(canonicalJson(body)).digest();
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value)
      .sort()
      .map((name) => `${JSON.stringify(name)}:${canonicalJson((value as Record<string, unknown>)[name])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
