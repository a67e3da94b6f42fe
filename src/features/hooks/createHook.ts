import type { VerbArgs } from '../../context.ts';
import { InvalidInput, NotFound } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import { codePointLength, hasNul } from '../../lib/text.ts';
import { MAX_CATEGORY_LENGTH } from '../events/validateEventInput.ts';
import { type HookObject, hookFromRow } from './hookObject.ts';
import { generateHookToken, hashHookToken, sealHookToken } from './hookToken.ts';
import { insertHook } from './queries.ts';
import { addCredential } from '../organizations/credentials.ts';
import { checkTemplateName } from './templates/index.ts';
import { hookTokenKey } from './tokenKey.ts';
import { recordAudit } from '../audit/recordAudit.ts';
import { withTransaction } from '../../db/client.ts';

const MAX_HOOK_NAME = 200;

/** A hook's name, trimmed: required, at most 200 characters of text (creating and renaming). */
export function checkHookName(text: string): string {
  const name = text.trim();
  if (!name) throw new InvalidInput('name is required');
  if (codePointLength(name) > MAX_HOOK_NAME || hasNul(name)) {
    throw new InvalidInput(`name must be at most ${MAX_HOOK_NAME} characters of text`);
  }
  return name;
}

/** The same rule an event's category meets, so every event this hook makes can use it. */
export function checkHookCategory(category: string): string {
  if (category.trim() === '') throw new InvalidInput('category is required');
  if (codePointLength(category) > MAX_CATEGORY_LENGTH || hasNul(category)) {
    throw new InvalidInput(`category must be at most ${MAX_CATEGORY_LENGTH} characters of text`);
  }
  return category;
}

export async function createHook({
  ctx,
  input,
}: VerbArgs<{ projectId: string; name: string; category: string; template?: string | null }>): Promise<HookObject> {
  const name = checkHookName(input.name);
  const category = checkHookCategory(input.category);

  const template = input.template === undefined || input.template === null ? null : checkTemplateName(input.template);

  const { sql, config } = ctx.services;
  const key = await hookTokenKey(sql);
  const id = newId(16);
  const token = generateHookToken();
  const row = await withTransaction(sql, async (tx) => {
    const inserted = await insertHook(tx, ctx.organizationId, {
      id,
      projectId: input.projectId,
      name,
      category,
      template,
      tokenHash: hashHookToken(token),
      tokenSealed: sealHookToken(key, id, token),
    });
    if (!inserted) throw new NotFound('Project');
    await addCredential(tx, 'hook', hashHookToken(token), ctx.organizationId);
    await recordAudit(tx, ctx, { action: 'hook.create', target: { type: 'hook', id } });
    return inserted;
  });
  ctx.services.bus.announce({ type: 'hook.created', organizationId: ctx.organizationId, projectId: row.projectId, id });
  return hookFromRow(row, config.baseUrl, key);
}
