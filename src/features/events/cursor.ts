import { isoMicroToMicros, microsToIsoMicro } from '../../lib/time.ts';

/**
 * `<created_at at microsecond precision>_<id>`, e.g. `2026-11-22T19:32:05.123456Z_42`.
 * Clients treat it as opaque; anything unreadable means "first page" (spec).
 */
export function encodeCursor(createdMicros: string, id: number): string {
  return `${microsToIsoMicro(createdMicros)}_${id}`;
}

export function decodeCursor(cursor: string | undefined): { micros: bigint; id: number } | undefined {
  if (!cursor) return undefined;
  const separator = cursor.lastIndexOf('_');
  if (separator < 0) return undefined;
  const micros = isoMicroToMicros(cursor.slice(0, separator));
  const idText = cursor.slice(separator + 1);
  if (micros === null || !/^\d{1,10}$/.test(idText)) return undefined;
  const id = Number(idText);
  return id <= 2_147_483_647 ? { micros, id } : undefined;
}
