import type { Static } from '@sinclair/typebox';
import type { VerbArgs } from '../../context.ts';
import { NotFound } from '../../lib/errors.ts';
import { isoMicroToMicros, microsToIsoMicro, microsToIso } from '../../lib/time.ts';
import { findDestination, listAttempts, listDeliveries as selectDeliveries } from './queries.ts';
import type { DeliveryPage } from './schemas.ts';

const DELIVERIES_PAGE_SIZE = 20;

/** `<created_at at microsecond precision>_<delivery id>`; anything unreadable means the first page. */
function decodeCursor(cursor: string | undefined): { micros: bigint; id: string } | undefined {
  if (!cursor) return undefined;
  const separator = cursor.lastIndexOf('_');
  if (separator < 0) return undefined;
  const micros = isoMicroToMicros(cursor.slice(0, separator));
  const id = cursor.slice(separator + 1);
  return micros !== null && /^[a-z0-9]{1,64}$/.test(id) ? { micros, id } : undefined;
}

/** The destination's attempt log, newest delivery first, each with its attempts in order. */
export async function listDeliveries({ ctx, input }: VerbArgs<{ destinationId: string; cursor?: string }>): Promise<Static<typeof DeliveryPage>> {
  const { sql } = ctx.services;
  // Checked first so another organization's destination is a 404, not an empty log.
  if (!(await findDestination(sql, ctx.organizationId, input.destinationId))) throw new NotFound('Destination');
  const rows = await selectDeliveries(sql, {
    organizationId: ctx.organizationId,
    destinationId: input.destinationId,
    before: decodeCursor(input.cursor),
    limit: DELIVERIES_PAGE_SIZE + 1,
  });
  const page = rows.slice(0, DELIVERIES_PAGE_SIZE);
  const attempts = await listAttempts(
    sql,
    ctx.organizationId,
    page.map((row) => row.id),
  );
  const last = page.at(-1);
  return {
    deliveries: page.map((row) => ({
      id: row.id,
      eventId: row.eventId,
      eventTitle: row.eventTitle,
      webhookId: row.webhookId,
      status: row.status,
      eventIds: row.eventIds ?? (row.eventId === 0 ? [] : [row.eventId]),
      attempts: attempts
        .filter((attempt) => attempt.deliveryId === row.id)
        .map((attempt) => ({
          at: attempt.at.toISOString(),
          status: attempt.status,
          durationMs: attempt.durationMs,
          error: attempt.error,
          response: attempt.response,
          note: attempt.note,
        })),
      createdAt: microsToIso(row.createdMicros),
    })),
    nextCursor: rows.length > DELIVERIES_PAGE_SIZE && last ? `${microsToIsoMicro(last.createdMicros)}_${last.id}` : null,
  };
}
