import type { Db } from '../../db/client.ts';
import type { NewDelivery } from './deliveryRecord.ts';

// Deliveries the destinations' management queues beside the fan-out: replays of old ones and the
// Test action's (destinations/replayDelivery.ts, replayFailed.ts, testDestination.ts). They read
// the destination's `enabled` where they choose what to queue.

/**
 * A new delivery of an old one's frozen body under the same webhook-id, due now. Undefined when
 * the delivery is not one of this destination's in the caller's organization.
 */
export async function insertReplay(
  sql: Db,
  q: { organizationId: string; destinationId: string; deliveryId: string; newId: string; maxAttempts: number },
): Promise<{ id: string; enabled: boolean } | undefined> {
  const [row] = await sql<{ id: string; enabled: boolean }[]>`
    WITH source AS (
      SELECT l.organization_id, l.destination_id, l.event_id, l.webhook_id, l.body, l.event_ids, d.enabled
      FROM deliveries l
      JOIN destinations d ON d.organization_id = l.organization_id AND d.id = l.destination_id
      WHERE l.organization_id = ${q.organizationId} AND l.id = ${q.deliveryId} AND l.destination_id = ${q.destinationId}
    ), replay AS (
      INSERT INTO deliveries (organization_id, id, destination_id, event_id, webhook_id, body, max_attempts, next_attempt_at, event_ids)
      SELECT organization_id, ${q.newId}, destination_id, event_id, webhook_id, body, ${q.maxAttempts}, now(), event_ids
      FROM source WHERE enabled
    )
    SELECT ${q.newId}::text AS id, enabled FROM source`;
  return row;
}

/**
 * replay-failed: every event whose latest delivery to the destination (Test deliveries aside) was
 * created at or after `since` and ended in failure is queued again, once, as a new delivery with
 * that delivery's frozen body and webhook-id. The new rows are created in the statement that
 * chooses them, so a second call finds them (pending, then their own outcome) as the latest and
 * does not queue the events twice. Undefined when the destination is not the organization's.
 */
export async function insertFailedReplays(
  sql: Db,
  q: { organizationId: string; destinationId: string; sinceSeconds: number; maxAttempts: number },
): Promise<{ enabled: boolean; queued: number } | undefined> {
  const [row] = await sql<{ enabled: boolean; queued: number }[]>`
    WITH destination AS (
      SELECT d.organization_id, d.id, d.enabled FROM destinations d
      WHERE d.organization_id = ${q.organizationId} AND d.id = ${q.destinationId}
    ), latest AS (
      SELECT DISTINCT ON (l.event_id) l.event_id, l.webhook_id, l.body, l.status, l.created_at, l.event_ids
      FROM deliveries l
      WHERE l.organization_id = ${q.organizationId} AND l.destination_id = ${q.destinationId} AND l.event_id <> 0
      ORDER BY l.event_id, l.created_at DESC, l.id DESC
    ), replayed AS (
      INSERT INTO deliveries (organization_id, id, destination_id, event_id, webhook_id, body, max_attempts, next_attempt_at, created_at, event_ids)
      SELECT d.organization_id, substr(replace(gen_random_uuid()::text, '-', ''), 1, 16), d.id,
             latest.event_id, latest.webhook_id, latest.body, ${q.maxAttempts}, now(), clock_timestamp(), latest.event_ids
      FROM latest, destination d
      WHERE d.enabled AND latest.status = 'failed'
        AND latest.created_at >= timestamptz 'epoch' + ${q.sinceSeconds} * interval '1 second'
      RETURNING 1
    )
    SELECT d.enabled, (SELECT count(*) FROM replayed)::int AS queued FROM destination d`;
  return row;
}

/** A Test delivery: created already leased to the caller, who sends it at once. */
export async function insertLeasedDelivery(sql: Db, row: NewDelivery & { leaseToken: string; leaseMs: number }): Promise<void> {
  await sql`
    INSERT INTO deliveries (organization_id, id, destination_id, event_id, webhook_id, body, max_attempts, next_attempt_at,
                            locked_until, lease_token)
    VALUES (${row.organizationId}, ${row.id}, ${row.destinationId}, ${row.eventId}, ${row.webhookId}, ${row.body},
            ${row.maxAttempts}, now(), now() + ${row.leaseMs} * interval '1 millisecond', ${row.leaseToken})`;
}
