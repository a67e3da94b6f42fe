import type { Db } from '../../db/client.ts';
import type { DeliveryFormat } from '../delivery/formats.ts';

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
  categories: string[] | null;
  disabledReason: string | null;
  groupWindowSeconds: number;
  createdAt: Date;
}

const columns = (sql: Db) => sql`
  d.id, d.project_id AS "projectId", d.name, d.url, d.format, d.enabled, d.secret,
  d.last_ok AS "lastOk", d.last_at AS "lastAt", d.last_status AS "lastStatus", d.last_error AS "lastError",
  d.categories, d.disabled_reason AS "disabledReason", d.group_window_seconds AS "groupWindowSeconds", d.created_at AS "createdAt"`;

/** Inserts into the caller's project; undefined when the project is not the organization's. */
export async function insertDestination(
  sql: Db,
  organizationId: string,
  row: {
    id: string;
    projectId: string;
    name: string;
    url: string;
    format: DeliveryFormat;
    enabled: boolean;
    secret: string | null;
    categories: string[] | null;
    groupWindowSeconds: number;
  },
): Promise<DestinationRow | undefined> {
  const [destination] = await sql<DestinationRow[]>`
    WITH d AS (
      INSERT INTO destinations AS d (organization_id, id, project_id, name, url, format, enabled, secret, categories, group_window_seconds)
      SELECT p.organization_id, ${row.id}, p.id, ${row.name}, ${row.url}, ${row.format}, ${row.enabled}, ${row.secret},
             ${row.categories}::text[], ${row.groupWindowSeconds}
      FROM projects p WHERE p.organization_id = ${organizationId} AND p.id = ${row.projectId} AND p.deleted_at IS NULL
      RETURNING id, project_id, name, url, format, enabled, secret, last_ok, last_at, last_status, last_error, categories,
                disabled_reason, group_window_seconds, created_at
    )
    SELECT ${columns(sql)} FROM d`;
  return destination;
}

export function listDestinations(sql: Db, organizationId: string, projectId: string): Promise<DestinationRow[]> {
  return sql<DestinationRow[]>`
    SELECT ${columns(sql)} FROM destinations d
    WHERE d.organization_id = ${organizationId} AND d.project_id = ${projectId}
    ORDER BY d.created_at, d.id`;
}

export async function findDestination(sql: Db, organizationId: string, destinationId: string): Promise<DestinationRow | undefined> {
  const [row] = await sql<DestinationRow[]>`
    SELECT ${columns(sql)} FROM destinations d
    WHERE d.organization_id = ${organizationId} AND d.id = ${destinationId}`;
  return row;
}

export async function setDestinationEnabled(sql: Db, organizationId: string, destinationId: string, enabled: boolean): Promise<DestinationRow | undefined> {
  // Enabling starts afresh: the automatic-disable reason and the run of failures are cleared.
  const [row] = await sql<DestinationRow[]>`
    UPDATE destinations d SET enabled = ${enabled},
      disabled_reason = CASE WHEN ${enabled} THEN NULL ELSE d.disabled_reason END,
      failure_run = CASE WHEN ${enabled} THEN 0 ELSE d.failure_run END
    WHERE d.organization_id = ${organizationId} AND d.id = ${destinationId}
    RETURNING ${columns(sql)}`;
  return row;
}

/** Changes the fields given (undefined leaves one as it is; categories null means every category). */
export async function updateDestination(
  sql: Db,
  organizationId: string,
  destinationId: string,
  change: { name?: string; url?: string; categories?: string[] | null; groupWindowSeconds?: number },
): Promise<DestinationRow | undefined> {
  const [row] = await sql<DestinationRow[]>`
    UPDATE destinations d SET
      name = COALESCE(${change.name ?? null}::text, d.name),
      url = COALESCE(${change.url ?? null}::text, d.url),
      categories = CASE WHEN ${change.categories !== undefined} THEN ${change.categories ?? null}::text[] ELSE d.categories END,
      group_window_seconds = COALESCE(${change.groupWindowSeconds ?? null}::int, d.group_window_seconds)
    WHERE d.organization_id = ${organizationId} AND d.id = ${destinationId}
    RETURNING ${columns(sql)}`;
  return row;
}

/** Replaces the secret of a json destination; other formats come back unchanged (they have none). */
export async function replaceSecret(sql: Db, organizationId: string, destinationId: string, secret: string): Promise<DestinationRow | undefined> {
  const [row] = await sql<DestinationRow[]>`
    UPDATE destinations d SET secret = CASE WHEN d.format = 'json' THEN ${secret} ELSE d.secret END
    WHERE d.organization_id = ${organizationId} AND d.id = ${destinationId}
    RETURNING ${columns(sql)}`;
  return row;
}

export async function deleteDestination(sql: Db, organizationId: string, destinationId: string): Promise<{ id: string; projectId: string } | undefined> {
  const [row] = await sql<{ id: string; projectId: string }[]>`
    DELETE FROM destinations d
    WHERE d.organization_id = ${organizationId} AND d.id = ${destinationId}
    RETURNING d.id, d.project_id AS "projectId"`;
  return row;
}

// ---- The attempt log -------------------------------------------------------------------------

interface DeliveryRow {
  id: string;
  eventId: number;
  /** Null for a Test delivery, or once the event is deleted. */
  eventTitle: string | null;
  webhookId: string;
  status: 'pending' | 'succeeded' | 'failed';
  eventIds: number[] | null;
  createdMicros: string;
}

interface AttemptRow {
  deliveryId: string;
  at: Date;
  status: number | null;
  durationMs: number | null;
  error: string | null;
  response: string | null;
  note: string | null;
}

/**
 * Newest first, along (destination_id, created_at DESC, id DESC), each with its event's title so
 * the log names what was sent. Events and deliveries share the organization's shard.
 */
export function listDeliveries(
  sql: Db,
  q: { organizationId: string; destinationId: string; before?: { micros: bigint; id: string }; limit: number },
): Promise<DeliveryRow[]> {
  return sql<DeliveryRow[]>`
    SELECT l.id, l.event_id AS "eventId", e.title AS "eventTitle", l.webhook_id AS "webhookId", l.status, l.event_ids AS "eventIds",
           (extract(epoch FROM l.created_at) * 1000000)::bigint::text AS "createdMicros"
    FROM deliveries l
    LEFT JOIN events e ON e.organization_id = l.organization_id AND e.id = l.event_id
    WHERE l.organization_id = ${q.organizationId} AND l.destination_id = ${q.destinationId}
    ${q.before ? sql`AND (l.created_at, l.id) < (timestamptz 'epoch' + ${q.before.micros.toString()}::int8 * interval '1 microsecond', ${q.before.id})` : sql``}
    ORDER BY l.created_at DESC, l.id DESC LIMIT ${q.limit}`;
}

export function listAttempts(sql: Db, organizationId: string, deliveryIds: string[]): Promise<AttemptRow[]> {
  if (deliveryIds.length === 0) return Promise.resolve([]);
  return sql<AttemptRow[]>`
    SELECT a.delivery_id AS "deliveryId", a.at, a.status, a.duration_ms AS "durationMs", a.error, a.response, a.note
    FROM delivery_attempts a
    WHERE a.organization_id = ${organizationId} AND a.delivery_id = ANY(${deliveryIds}::text[])
    ORDER BY a.delivery_id, a.attempt`;
}

interface HealthRow {
  finished: number;
  succeeded: number;
}

/** The outcomes of the destination's latest finished deliveries (Test deliveries aside). */
export async function selectHealth(sql: Db, organizationId: string, destinationId: string, window: number): Promise<HealthRow> {
  const [row] = await sql<HealthRow[]>`
    SELECT count(*)::int AS finished, count(*) FILTER (WHERE r.status = 'succeeded')::int AS succeeded
    FROM (
      SELECT l.status FROM deliveries l
      WHERE l.organization_id = ${organizationId} AND l.destination_id = ${destinationId}
        AND l.status <> 'pending' AND l.event_id <> 0
      ORDER BY l.created_at DESC, l.id DESC LIMIT ${window}
    ) r`;
  return row as HealthRow;
}

/** The project a destination of the organization belongs to (a key's project scope, http/routeScope.ts). */
export async function findDestinationProject(sql: Db, organizationId: string, destinationId: string): Promise<string | undefined> {
  const [row] = await sql<{ projectId: string }[]>`
    SELECT project_id AS "projectId" FROM destinations WHERE organization_id = ${organizationId} AND id = ${destinationId}`;
  return row?.projectId;
}
