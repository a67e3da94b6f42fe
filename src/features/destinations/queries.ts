import type { Db, Sql, TransactionSql } from '../../db/client.ts';
import type { EventRow } from '../events/queries.ts';
import type { DeliveryFormat } from './formats.ts';

export interface DestinationRow {
  id: string;
  projectId: string;
  name: string;
  url: string;
  format: DeliveryFormat;
  enabled: boolean;
  secret: string | null;
  lastOk: boolean | null;
  lastAt: Date | null;
  lastStatus: number | null;
  lastError: string | null;
  createdAt: Date;
}

const columns = (sql: Db) => sql`
  d.id, d.project_id AS "projectId", d.name, d.url, d.format, d.enabled, d.secret,
  d.last_ok AS "lastOk", d.last_at AS "lastAt", d.last_status AS "lastStatus", d.last_error AS "lastError",
  d.created_at AS "createdAt"`;

/** Inserts into the caller's project; undefined when the project is not the organization's. */
export async function insertDestination(
  sql: Sql,
  organizationId: string,
  row: { id: string; projectId: string; name: string; url: string; format: DeliveryFormat; enabled: boolean; secret: string | null },
): Promise<DestinationRow | undefined> {
  const [destination] = await sql<DestinationRow[]>`
    WITH d AS (
      INSERT INTO destinations AS d (organization_id, id, project_id, name, url, format, enabled, secret)
      SELECT p.organization_id, ${row.id}, p.id, ${row.name}, ${row.url}, ${row.format}, ${row.enabled}, ${row.secret}
      FROM projects p WHERE p.organization_id = ${organizationId} AND p.id = ${row.projectId}
      RETURNING id, project_id, name, url, format, enabled, secret, last_ok, last_at, last_status, last_error, created_at
    )
    SELECT ${columns(sql)} FROM d`;
  return destination;
}

export function listDestinations(sql: Sql, organizationId: string, projectId: string): Promise<DestinationRow[]> {
  return sql<DestinationRow[]>`
    SELECT ${columns(sql)} FROM destinations d
    WHERE d.organization_id = ${organizationId} AND d.project_id = ${projectId}
    ORDER BY d.created_at, d.id`;
}

export async function findDestination(sql: Sql, organizationId: string, destinationId: string): Promise<DestinationRow | undefined> {
  const [row] = await sql<DestinationRow[]>`
    SELECT ${columns(sql)} FROM destinations d
    WHERE d.organization_id = ${organizationId} AND d.id = ${destinationId}`;
  return row;
}

export async function setDestinationEnabled(
  sql: Sql,
  organizationId: string,
  destinationId: string,
  enabled: boolean,
): Promise<DestinationRow | undefined> {
  const [row] = await sql<DestinationRow[]>`
    UPDATE destinations d SET enabled = ${enabled}
    WHERE d.organization_id = ${organizationId} AND d.id = ${destinationId}
    RETURNING ${columns(sql)}`;
  return row;
}

/** Replaces the secret of a json destination; other formats come back unchanged (they have none). */
export async function replaceSecret(
  sql: Sql,
  organizationId: string,
  destinationId: string,
  secret: string,
): Promise<DestinationRow | undefined> {
  const [row] = await sql<DestinationRow[]>`
    UPDATE destinations d SET secret = CASE WHEN d.format = 'json' THEN ${secret} ELSE d.secret END
    WHERE d.organization_id = ${organizationId} AND d.id = ${destinationId}
    RETURNING ${columns(sql)}`;
  return row;
}

export async function deleteDestination(
  sql: Sql,
  organizationId: string,
  destinationId: string,
): Promise<{ id: string; projectId: string } | undefined> {
  const [row] = await sql<{ id: string; projectId: string }[]>`
    DELETE FROM destinations d
    WHERE d.organization_id = ${organizationId} AND d.id = ${destinationId}
    RETURNING d.id, d.project_id AS "projectId"`;
  return row;
}

// ---- The attempt log -------------------------------------------------------------------------

export interface DeliveryRow {
  id: string;
  eventId: number;
  webhookId: string;
  status: 'pending' | 'succeeded' | 'failed';
  createdMicros: string;
}

export interface AttemptRow {
  deliveryId: string;
  at: Date;
  status: number | null;
  durationMs: number | null;
  error: string | null;
  response: string | null;
}

/** Newest first, along (destination_id, created_at DESC, id DESC). */
export function listDeliveries(
  sql: Sql,
  q: { organizationId: string; destinationId: string; before?: { micros: bigint; id: string }; limit: number },
): Promise<DeliveryRow[]> {
  return sql<DeliveryRow[]>`
    SELECT l.id, l.event_id AS "eventId", l.webhook_id AS "webhookId", l.status,
           (extract(epoch FROM l.created_at) * 1000000)::bigint::text AS "createdMicros"
    FROM deliveries l
    WHERE l.organization_id = ${q.organizationId} AND l.destination_id = ${q.destinationId}
    ${q.before ? sql`AND (l.created_at, l.id) < (timestamptz 'epoch' + ${q.before.micros.toString()}::int8 * interval '1 microsecond', ${q.before.id})` : sql``}
    ORDER BY l.created_at DESC, l.id DESC LIMIT ${q.limit}`;
}

export function listAttempts(sql: Sql, organizationId: string, deliveryIds: string[]): Promise<AttemptRow[]> {
  if (deliveryIds.length === 0) return Promise.resolve([]);
  return sql<AttemptRow[]>`
    SELECT a.delivery_id AS "deliveryId", a.at, a.status, a.duration_ms AS "durationMs", a.error, a.response
    FROM delivery_attempts a
    WHERE a.organization_id = ${organizationId} AND a.delivery_id = ANY(${deliveryIds}::text[])
    ORDER BY a.delivery_id, a.attempt`;
}

/**
 * A new delivery of an old one's frozen body under the same webhook-id, due now. Undefined when
 * the delivery is not one of this destination's in the caller's organization.
 */
export async function insertReplay(
  sql: Sql,
  q: { organizationId: string; destinationId: string; deliveryId: string; newId: string; maxAttempts: number },
): Promise<{ id: string; enabled: boolean } | undefined> {
  const [row] = await sql<{ id: string; enabled: boolean }[]>`
    WITH source AS (
      SELECT l.organization_id, l.destination_id, l.event_id, l.webhook_id, l.body, d.enabled
      FROM deliveries l
      JOIN destinations d ON d.organization_id = l.organization_id AND d.id = l.destination_id
      WHERE l.organization_id = ${q.organizationId} AND l.id = ${q.deliveryId} AND l.destination_id = ${q.destinationId}
    ), replay AS (
      INSERT INTO deliveries (organization_id, id, destination_id, event_id, webhook_id, body, max_attempts, next_attempt_at)
      SELECT organization_id, ${q.newId}, destination_id, event_id, webhook_id, body, ${q.maxAttempts}, now()
      FROM source WHERE enabled
    )
    SELECT ${q.newId}::text AS id, enabled FROM source`;
  return row;
}

// ---- The delivery worker ---------------------------------------------------------------------

/** Restricts a query to some organizations' rows (see DeliveryWorkerOptions.onlyOrganizations). */
export type OrganizationScope = readonly string[] | undefined;

/** `AND <alias>.organization_id = ANY(scope)`, or nothing without a scope. */
function inScope(sql: Db, alias: string, scope: OrganizationScope) {
  return scope ? sql`AND ${sql(alias)}.organization_id = ANY(${scope as string[]}::text[])` : sql``;
}

/** An outbox row taken for fan-out: a notify event of one organization. */
export interface OutboxRow {
  organizationId: string;
  eventId: number;
  projectId: string;
}

/**
 * Takes the oldest outbox rows by deleting them in the fan-out transaction: a concurrent claimer
 * waits on their row locks and then skips the rows this one deleted, so no row is fanned out
 * twice, and a fan-out that fails rolls the delete back with everything else.
 */
export function claimOutbox(tx: TransactionSql, limit: number, scope: OrganizationScope): Promise<OutboxRow[]> {
  return tx<OutboxRow[]>`
    DELETE FROM notify_outbox
    WHERE (organization_id, event_id) IN (
      SELECT o.organization_id, o.event_id FROM notify_outbox o
      ${scope ? tx`WHERE o.organization_id = ANY(${scope as string[]}::text[])` : tx``}
      ORDER BY o.created_at LIMIT ${limit}
    )
    RETURNING organization_id AS "organizationId", event_id AS "eventId", project_id AS "projectId"`;
}

/**
 * The outbox rows' events, by (organization_id, id): event ids are per organization. The keys
 * drive one index lookup each, here and in the fan-out's other reads (destinations, push
 * subscriptions). (A filter `organization_id = ANY(...)` beside the keys let the prepared
 * statement's generic plan walk every event of the organization instead: the fan-out then cost
 * more database time than the ingest it followed.)
 */
export function selectEvents(tx: TransactionSql, keys: readonly OutboxRow[]): Promise<(EventRow & { organizationId: string })[]> {
  return tx<(EventRow & { organizationId: string })[]>`
    SELECT e.organization_id AS "organizationId", e.id, e.project_id AS "projectId", e.category, e.title, e.description,
           e.icon, e.tags, e.metadata, e.url, e.user_id, e.notify, e.favorited,
           (extract(epoch FROM e.created_at) * 1000000)::bigint::text AS "createdMicros"
    FROM unnest(${keys.map((k) => k.organizationId)}::text[], ${keys.map((k) => k.eventId)}::int[]) AS k(organization_id, id)
    JOIN events e ON e.organization_id = k.organization_id AND e.id = k.id
    ORDER BY e.organization_id, e.id`;
}

/** A project of an organization (project ids are unique only within their organization). */
export interface ProjectKey {
  organizationId: string;
  projectId: string;
}

export function selectEnabledDestinations(
  tx: TransactionSql,
  projects: readonly ProjectKey[],
): Promise<{ organizationId: string; id: string; projectId: string; format: DeliveryFormat }[]> {
  return tx<{ organizationId: string; id: string; projectId: string; format: DeliveryFormat }[]>`
    SELECT d.organization_id AS "organizationId", d.id, d.project_id AS "projectId", d.format
    FROM unnest(${projects.map((p) => p.organizationId)}::text[], ${projects.map((p) => p.projectId)}::text[])
      AS k(organization_id, project_id)
    JOIN destinations d ON d.organization_id = k.organization_id AND d.project_id = k.project_id
    WHERE d.enabled`;
}

export interface NewDelivery {
  organizationId: string;
  id: string;
  destinationId: string;
  eventId: number;
  webhookId: string;
  body: string;
  maxAttempts: number;
}

export async function insertDeliveries(tx: TransactionSql, rows: NewDelivery[]): Promise<void> {
  if (rows.length === 0) return;
  await tx`
    INSERT INTO deliveries (organization_id, id, destination_id, event_id, webhook_id, body, max_attempts, next_attempt_at, created_at)
    -- clock_timestamp(): rows of one batch keep their order in the newest-first log.
    SELECT organization_id, id, destination_id, event_id, webhook_id, body, max_attempts, now(), clock_timestamp()
    FROM json_to_recordset(${JSON.stringify(rows.map(toRecord))}::text::json) AS t(
      organization_id text, id text, destination_id text, event_id int, webhook_id text, body text, max_attempts int)`;
}

const toRecord = (row: NewDelivery) => ({
  organization_id: row.organizationId,
  id: row.id,
  destination_id: row.destinationId,
  event_id: row.eventId,
  webhook_id: row.webhookId,
  body: row.body,
  max_attempts: row.maxAttempts,
});

/** A delivery this process holds the lease of, with what sending it needs. */
export interface ClaimedDelivery {
  organizationId: string;
  id: string;
  leaseToken: string;
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

/**
 * Leases due deliveries (locked_until), which keeps other claimers off until this process records
 * the attempt or its lease runs out. The outer WHERE repeats the subquery's conditions: a
 * concurrent claimer that picked the same rows waits on their row locks, and then this re-check,
 * evaluated on the rows as they are after the first claimer's commit, makes it skip them.
 */
export function claimDueDeliveries(
  sql: Sql,
  q: { limit: number; leaseMs: number; leaseToken: string; scope: OrganizationScope },
): Promise<ClaimedDelivery[]> {
  return sql<ClaimedDelivery[]>`
    UPDATE deliveries l
    SET locked_until = now() + ${q.leaseMs} * interval '1 millisecond', lease_token = ${q.leaseToken}
    FROM destinations d
    WHERE (l.organization_id, l.id) IN (
      SELECT c.organization_id, c.id FROM deliveries c
      WHERE c.status = 'pending' AND c.next_attempt_at <= now()
        AND (c.locked_until IS NULL OR c.locked_until < now())
        ${inScope(sql, 'c', q.scope)}
      ORDER BY c.next_attempt_at LIMIT ${q.limit}
    )
      AND l.status = 'pending' AND l.next_attempt_at <= now()
      AND (l.locked_until IS NULL OR l.locked_until < now())
      AND d.organization_id = l.organization_id AND d.id = l.destination_id
    RETURNING l.organization_id AS "organizationId", l.id, l.lease_token AS "leaseToken", l.webhook_id AS "webhookId",
              l.body, l.attempts, l.max_attempts AS "maxAttempts", d.id AS "destinationId", d.url, d.format, d.secret,
              d.enabled`;
}

/** Deletes up to `limit` finished deliveries created over `olderThanMs` ago; attempts cascade. */
export async function pruneFinishedDeliveries(
  sql: Sql,
  q: { olderThanMs: number; limit: number; scope: OrganizationScope },
): Promise<number> {
  const deleted = await sql`
    DELETE FROM deliveries WHERE (organization_id, id) IN (
      SELECT c.organization_id, c.id FROM deliveries c
      WHERE c.status <> 'pending' AND c.created_at < now() - ${q.olderThanMs} * interval '1 millisecond'
        ${inScope(sql, 'c', q.scope)}
      LIMIT ${q.limit})`;
  return deleted.count;
}

/** A Test delivery: created already leased to the caller, who sends it at once. */
export async function insertLeasedDelivery(
  sql: Sql,
  row: NewDelivery & { leaseToken: string; leaseMs: number },
): Promise<void> {
  await sql`
    INSERT INTO deliveries (organization_id, id, destination_id, event_id, webhook_id, body, max_attempts, next_attempt_at,
                            locked_until, lease_token)
    VALUES (${row.organizationId}, ${row.id}, ${row.destinationId}, ${row.eventId}, ${row.webhookId}, ${row.body},
            ${row.maxAttempts}, now(), now() + ${row.leaseMs} * interval '1 millisecond', ${row.leaseToken})`;
}

export interface AttemptRecord {
  organizationId: string;
  deliveryId: string;
  leaseToken: string;
  at: Date;
  status: number | null;
  durationMs: number | null;
  error: string | null;
  response: string | null;
  outcome: 'pending' | 'succeeded' | 'failed';
  /** Wait before the next attempt, when outcome is pending. */
  retryInMs: number;
  /** Whether this attempt ends the delivery and so becomes the destination's lastStatus. */
  updatesLastStatus: boolean;
}

/**
 * Records an attempt and its consequence in one statement: the delivery's new state, the attempt
 * log row and, when the delivery ended, the destination's last status. Nothing is written when
 * the lease was lost (another process took the delivery over); false then.
 */
export async function recordAttempt(sql: Sql, r: AttemptRecord): Promise<boolean> {
  const ended = r.outcome !== 'pending';
  // Chosen here rather than by a CASE around now() in the SET list.
  const nextAttemptAt = ended ? sql`NULL` : sql`now() + ${r.retryInMs} * interval '1 millisecond'`;
  const rows = await sql`
    WITH l AS (
      UPDATE deliveries SET
        attempts = attempts + 1,
        status = ${r.outcome},
        next_attempt_at = ${nextAttemptAt},
        locked_until = NULL,
        lease_token = NULL
      WHERE organization_id = ${r.organizationId} AND id = ${r.deliveryId} AND lease_token = ${r.leaseToken}
      RETURNING organization_id, id, destination_id, attempts
    ), logged AS (
      INSERT INTO delivery_attempts (organization_id, delivery_id, attempt, at, status, duration_ms, error, response)
      SELECT organization_id, id, attempts, ${r.at}, ${r.status}, ${r.durationMs}, ${r.error}, ${r.response} FROM l
    ), last AS (
      UPDATE destinations d SET last_ok = ${r.outcome === 'succeeded'}, last_at = ${r.at}, last_status = ${r.status}, last_error = ${r.error}
      FROM l
      WHERE d.organization_id = ${r.organizationId} AND d.organization_id = l.organization_id AND d.id = l.destination_id
        AND ${ended && r.updatesLastStatus} AND (d.last_at IS NULL OR d.last_at <= ${r.at})
    )
    SELECT id FROM l`;
  return rows.length === 1;
}
