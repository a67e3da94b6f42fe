import type { VerbArgs } from '../../context.ts';
import { InvalidInput } from '../../lib/errors.ts';
import { isoMicroToMicros, microsToIso, microsToIsoMicro } from '../../lib/time.ts';
import { type AuditRow, listAuditEntries } from './queries.ts';

const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 100;

interface AuditEntry {
  id: string;
  at: string;
  actor: { kind: 'user' | 'key' | 'operator'; id: string | null; label: string | null } | null;
  action: string;
  target: { type: string; id: string } | null;
  ip: string | null;
}

interface ListAuditInput {
  cursor?: string;
  limit?: string;
  action?: string;
  actor?: string;
}

/** `<at at microsecond precision>_<id>`; anything unreadable is a 400, not a silent first page. */
function decodeCursor(cursor: string): { micros: bigint; id: string } {
  const separator = cursor.lastIndexOf('_');
  const micros = separator > 0 ? isoMicroToMicros(cursor.slice(0, separator)) : null;
  const id = cursor.slice(separator + 1);
  if (micros === null || !/^[A-Za-z0-9]{1,64}$/.test(id)) throw new InvalidInput('cursor is not one this server gave out');
  return { micros, id };
}

function parseLimit(raw: string | undefined): number {
  if (raw === undefined || raw === '') return DEFAULT_LIMIT;
  const limit = /^\d{1,4}$/.test(raw) ? Number(raw) : NaN;
  if (!(limit >= 1 && limit <= MAX_LIMIT)) throw new InvalidInput(`limit must be an integer from 1 to ${MAX_LIMIT}`);
  return limit;
}

function entryFromRow(row: AuditRow): AuditEntry {
  return {
    id: row.id,
    at: microsToIso(row.atMicros),
    actor: row.actorKind ? { kind: row.actorKind, id: row.actorId, label: row.actorLabel } : null,
    action: row.action,
    target: row.targetType && row.targetId ? { type: row.targetType, id: row.targetId } : null,
    ip: row.ip,
  };
}

/** GET /api/audit: the organization's audit log, newest first, in keyset pages; by action or actor id. */
export async function listAudit({ ctx, input }: VerbArgs<ListAuditInput>): Promise<{ entries: AuditEntry[]; nextCursor: string | null }> {
  const limit = parseLimit(input.limit);
  const rows = await listAuditEntries(ctx.services.sql, {
    organizationId: ctx.organizationId,
    limit: limit + 1,
    after: input.cursor ? decodeCursor(input.cursor) : undefined,
    action: input.action || undefined,
    actorId: input.actor || undefined,
  });
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { entries: page.map(entryFromRow), nextCursor: rows.length > limit && last ? `${microsToIsoMicro(last.atMicros)}_${last.id}` : null };
}
