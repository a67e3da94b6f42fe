import { InvalidInput } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import type { InstallationCtx } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import { type OrganizationRow, insertOrganization } from './queries.ts';

interface CreateOrganizationInput {
  name: string;
  monthlyEventCap?: number | null;
}

/** Organizations are made by the operator (command line, first-run setup), never by a tenant. */
export async function createOrganization({
  ctx,
  input,
}: {
  /** Its services may be only a transaction to write in. */
  ctx: InstallationCtx<{ sql: Db }>;
  input: CreateOrganizationInput;
}): Promise<OrganizationRow> {
  const name = input.name.trim();
  if (!name) throw new InvalidInput('Organization name must not be empty');
  const cap = input.monthlyEventCap ?? null;
  if (cap !== null && (!Number.isInteger(cap) || cap < 0 || cap > 2_147_483_647)) {
    throw new InvalidInput('monthly event cap must be a whole number from 0 to 2147483647');
  }
  const row = { id: newId(16), name, monthlyEventCap: cap };
  await insertOrganization(ctx.services.sql, row);
  return row;
}
