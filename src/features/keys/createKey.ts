import type { VerbArgs } from '../../context.ts';
import { NotFound } from '../../lib/errors.ts';
import { newId, sha256 } from '../../lib/ids.ts';
import { findOrganization } from '../organizations/queries.ts';
import { DISPLAY_PREFIX_LENGTH, generateApiKey } from './keyFormat.ts';
import { insertKey } from './queries.ts';

interface CreatedKey {
  id: string;
  /** The plaintext: returned this once and never stored. */
  key: string;
  prefix: string;
}

export async function createKey({ ctx }: VerbArgs<void>): Promise<CreatedKey> {
  const { sql } = ctx.services;
  if (!(await findOrganization(sql, ctx.organizationId))) throw new NotFound('Organization');
  const key = generateApiKey();
  const created = { id: newId(16), key, prefix: key.slice(0, DISPLAY_PREFIX_LENGTH) };
  await insertKey(sql, { id: created.id, organizationId: ctx.organizationId, keyHash: sha256(key), prefix: created.prefix });
  return created;
}
