import type { Static } from '@sinclair/typebox';
import type { VerbArgs } from '../../context.ts';
import { InvalidInput, NotFound } from '../../lib/errors.ts';
import { findAlert, listTransitions } from './queries.ts';
import type { HistoryPage } from './schemas.ts';

const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 100;

function parseLimit(raw: string | undefined): number {
  if (raw === undefined) return DEFAULT_LIMIT;
  if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > MAX_LIMIT) throw new InvalidInput(`limit must be an integer from 1 to ${MAX_LIMIT}`);
  return Number(raw);
}

/** The cursor is the position of the last transition of the previous page. */
function parseCursor(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d{1,9}$/.test(raw)) throw new InvalidInput('cursor is not one this endpoint gave');
  return Number(raw);
}

/** GET /api/alerts/:alertId/history: transitions newest first, by keyset pages. */
export async function listAlertHistory({ ctx, input }: VerbArgs<{ alertId: string; cursor?: string; limit?: string }>): Promise<Static<typeof HistoryPage>> {
  const limit = parseLimit(input.limit);
  const before = parseCursor(input.cursor);
  const { sql } = ctx.services;
  if (!(await findAlert(sql, ctx.organizationId, input.alertId))) throw new NotFound('Alert');
  const rows = await listTransitions(sql, ctx.organizationId, input.alertId, before, limit + 1);
  const page = rows.slice(0, limit);
  return {
    transitions: page.map((row) => ({ state: row.state, at: row.at.toISOString(), count: row.count })),
    nextCursor: rows.length > limit ? String(page.at(-1)!.seq) : null,
  };
}
