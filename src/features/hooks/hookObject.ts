import type { Static } from '@sinclair/typebox';
import { openHookToken } from './hookToken.ts';
import type { HookRow } from './queries.ts';
import type { Hook } from './schemas.ts';

export type HookObject = Static<typeof Hook>;

export function hookFromRow(row: HookRow, baseUrl: string, tokenKey: Buffer): HookObject {
  return {
    id: row.id,
    projectId: row.projectId,
    name: row.name,
    category: row.category,
    enabled: row.enabled,
    template: row.template,
    url: `${baseUrl}/hook/${openHookToken(tokenKey, row.id, row.tokenSealed)}`,
    createdAt: row.createdAt.toISOString(),
  };
}
