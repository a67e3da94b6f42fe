import type { Db } from './client.ts';

/**
 * The organization every key names, when they all name the same one: a statement over keys of
 * several organizations then also filters by that one as a constant, which Citus routes to the
 * organization's shard instead of visiting every shard (decision 233). Undefined for keys of
 * several organizations, or none.
 */
export function oneOrganization(keys: readonly { organizationId: string }[]): string | undefined {
  const first = keys[0]?.organizationId;
  return first !== undefined && keys.every((key) => key.organizationId === first) ? first : undefined;
}

/** `AND <alias>.organization_id = <organization>` when the keys name one organization (see oneOrganization); nothing otherwise. */
export function sameOrganization(sql: Db, alias: string, organizationId: string | undefined) {
  return organizationId === undefined ? sql`` : sql`AND ${sql(alias)}.organization_id = ${organizationId}`;
}
