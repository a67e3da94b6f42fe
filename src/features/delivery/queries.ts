import type { Sql, TransactionSql } from '../../db/client.ts';
import { oneOrganization, sameOrganization } from '../../db/oneOrganization.ts';
import type { EventRow } from '../events/eventObject.ts';
import type { NewDelivery } from './deliveryRecord.ts';
import type { DeliveryFormat } from './formats.ts';

// The outbox and the fan-out: every organization's rows, since the worker serves them all.

/** An outbox row taken for fan-out: a notify event of one organization. */
interface OutboxRow {
  organizationId: string;
  eventId: number;
  projectId: string;
}

/**
 * Takes the oldest outbox rows (of one organization, or of all) by deleting them in the fan-out
 * transaction: a concurrent claimer waits on their row locks and then skips the rows this one
 * deleted, so no row is fanned out twice, and a fan-out that fails rolls the delete back with
 * everything else.
 */
export function claimOutbox(tx: TransactionSql, limit: number, organizationId?: string): Promise<OutboxRow[]> {
  return tx<OutboxRow[]>`
    DELETE FROM notify_outbox n
    WHERE (n.organization_id, n.event_id) IN (
      SELECT o.organization_id, o.event_id FROM notify_outbox o
      WHERE true ${sameOrganization(tx, 'o', organizationId)}
      ORDER BY o.created_at LIMIT ${limit}
    ) ${sameOrganization(tx, 'n', organizationId)}
    RETURNING organization_id AS "organizationId", event_id AS "eventId", project_id AS "projectId"`;
}

/**
 * The outbox rows' events, by (organization_id, id): event ids are per organization. The keys
 * drive one index lookup each, here and in the fan-out's other reads (destinations, push
 * subscriptions). (A filter `organization_id = ANY(...)` beside the keys let the prepared
 * statement's generic plan walk every event of the organization instead: the fan-out then cost
 * more database time than the ingest it followed.) Keys of one organization are read as that
 * organization's ids, one shard's statement on Citus (decision 233).
 */
export function selectEvents(
  tx: TransactionSql,
  keys: readonly OutboxRow[],
): Promise<(EventRow & { organizationId: string; projectName: string; alertId: string | null })[]> {
  const only = oneOrganization(keys);
  const ids = keys.map((k) => k.eventId);
  const source = only
    ? tx`events e`
    : tx`unnest(${keys.map((k) => k.organizationId)}::text[], ${ids}::int[]) AS k(organization_id, id)
         JOIN events e ON e.organization_id = k.organization_id AND e.id = k.id`;
  return tx<(EventRow & { organizationId: string; projectName: string; alertId: string | null })[]>`
    SELECT e.organization_id AS "organizationId", p.name AS "projectName", e.id, e.project_id AS "projectId", e.category, e.title, e.description,
           e.icon, e.tags, e.metadata, e.url, e.user_id, e.notify, e.favorited, e.alert_id AS "alertId",
           (extract(epoch FROM e.created_at) * 1000000)::bigint::text AS "createdMicros"
    FROM ${source}
    -- A deleted project's events are not sent anywhere, even before its purge removes them.
    JOIN projects p ON p.organization_id = e.organization_id AND p.id = e.project_id AND p.deleted_at IS NULL
    ${only ? tx`WHERE e.organization_id = ${only} AND e.id = ANY(${ids}::int[])` : tx``}
    ORDER BY e.organization_id, e.id`;
}

/** The (organization, project, category) of a fanned-out event: what chooses its destinations. */
export interface RoutingKey {
  organizationId: string;
  projectId: string;
  category: string;
}

/**
 * The enabled destinations each key's events go to, matched by project and by the destination's
 * category filter (NULL takes every category): one statement for a whole batch of outbox rows,
 * whatever the number of destinations. A destination comes back once per key it matches.
 */
export function selectRoutedDestinations(
  tx: TransactionSql,
  keys: readonly RoutingKey[],
): Promise<(RoutingKey & { id: string; format: DeliveryFormat; groupWindowSeconds: number })[]> {
  return tx<(RoutingKey & { id: string; format: DeliveryFormat; groupWindowSeconds: number })[]>`
    SELECT d.organization_id AS "organizationId", d.id, d.project_id AS "projectId", k.category, d.format,
           d.group_window_seconds AS "groupWindowSeconds"
    FROM unnest(${keys.map((k) => k.organizationId)}::text[], ${keys.map((k) => k.projectId)}::text[],
                ${keys.map((k) => k.category)}::text[]) AS k(organization_id, project_id, category)
    JOIN destinations d ON d.organization_id = k.organization_id AND d.project_id = k.project_id
    WHERE d.enabled AND (d.categories IS NULL OR k.category = ANY(d.categories)) ${sameOrganization(tx, 'd', oneOrganization(keys))}`;
}

export async function insertDeliveries(tx: TransactionSql, rows: NewDelivery[]): Promise<void> {
  if (rows.length === 0) return;
  await tx`
    INSERT INTO deliveries (organization_id, id, destination_id, event_id, webhook_id, body, max_attempts, next_attempt_at, created_at, event_ids)
    -- clock_timestamp(): rows of one batch keep their order in the newest-first log.
    SELECT organization_id, id, destination_id, event_id, webhook_id, body, max_attempts,
           now() + delay_ms * interval '1 millisecond', clock_timestamp(), event_ids
    FROM json_to_recordset(${JSON.stringify(rows.map(toRecord))}::text::json) AS t(
      organization_id text, id text, destination_id text, event_id int, webhook_id text, body text, max_attempts int,
      event_ids int[], delay_ms int)`;
}

const toRecord = (row: NewDelivery) => ({
  organization_id: row.organizationId,
  id: row.id,
  destination_id: row.destinationId,
  event_id: row.eventId,
  webhook_id: row.webhookId,
  body: row.body,
  max_attempts: row.maxAttempts,
  event_ids: row.eventIds ?? null,
  delay_ms: row.delayMs ?? 0,
});

export interface NewPushJob {
  organizationId: string;
  id: string;
  subscriptionId: string;
  eventId: number;
  payload: string;
  maxAttempts: number;
}

export async function insertPushJobs(tx: TransactionSql, jobs: NewPushJob[]): Promise<void> {
  if (jobs.length === 0) return;
  const records = jobs.map((j) => ({
    organization_id: j.organizationId,
    id: j.id,
    subscription_id: j.subscriptionId,
    event_id: j.eventId,
    payload: j.payload,
    max_attempts: j.maxAttempts,
  }));
  await tx`
    INSERT INTO push_jobs (organization_id, id, subscription_id, event_id, payload, max_attempts)
    SELECT organization_id, id, subscription_id, event_id, payload, max_attempts
    FROM json_to_recordset(${JSON.stringify(records)}::text::json) AS t(
      organization_id text, id text, subscription_id text, event_id int, payload text, max_attempts int)`;
}

/** The metrics' queue depth: the outbox, pending deliveries (a partial index) and push jobs. */
export async function countQueued(sql: Sql): Promise<number> {
  const [row] = await sql<{ depth: string }[]>`
    SELECT (SELECT count(*) FROM notify_outbox)
         + (SELECT count(*) FROM deliveries WHERE status = 'pending')
         + (SELECT count(*) FROM push_jobs) AS depth`;
  return Number(row!.depth);
}
