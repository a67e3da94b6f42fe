import type { VerbArgs } from '../../context.ts';
import { InvalidInput, NotFound } from '../../lib/errors.ts';
import { newId, sha256 } from '../../lib/ids.ts';
import { codePointLength, hasNul } from '../../lib/text.ts';
import { addCredential } from '../organizations/credentials.ts';
import { lookUpOrganization } from '../organizations/organizationRecord.ts';
import { DISPLAY_PREFIX_LENGTH, generateApiKey } from './keyFormat.ts';
import { type KeyScope, type KeyScopeInput, checkKeyScope } from './keyScope.ts';
import { insertKey } from './queries.ts';
import { recordAudit } from '../audit/recordAudit.ts';
import { withTransaction } from '../../db/client.ts';

const MAX_KEY_NAME = 100;

interface CreateKeyInput extends KeyScopeInput {
  name?: string | null;
}

interface CreatedKey extends KeyScope {
  id: string;
  name: string | null;
  /** The plaintext: returned this once and never stored. */
  key: string;
  prefix: string;
}

/** A name is optional, but one that is given must say something. */
function checkKeyName(raw: string | null | undefined): string | null {
  if (raw === undefined || raw === null) return null;
  const name = raw.trim();
  if (!name || codePointLength(name) > MAX_KEY_NAME || hasNul(name)) {
    throw new InvalidInput(`name must be 1 to ${MAX_KEY_NAME} characters of text`);
  }
  return name;
}

export async function createKey({ ctx, input }: VerbArgs<CreateKeyInput | undefined>): Promise<CreatedKey> {
  const { sql } = ctx.services;
  const name = checkKeyName(input?.name);
  if (!(await lookUpOrganization(sql, ctx.organizationId))) throw new NotFound('Organization');
  const scope = await checkKeyScope(ctx, input ?? {});
  const key = generateApiKey();
  const created = { id: newId(16), name, key, prefix: key.slice(0, DISPLAY_PREFIX_LENGTH), ...scope };
  await withTransaction(sql, async (tx) => {
    const keyHash = sha256(key);
    await addCredential(tx, 'api_key', keyHash, ctx.organizationId);
    await insertKey(tx, { id: created.id, organizationId: ctx.organizationId, keyHash, prefix: created.prefix, name, ...scope });
    await recordAudit(tx, ctx, { action: 'key.create', target: { type: 'key', id: created.id } });
  });
  return created;
}
