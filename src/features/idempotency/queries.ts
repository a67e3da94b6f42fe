import type { Db } from '../../db/client.ts';
import type { JSONValue } from 'postgres';

interface StoredKey {
  requestHash: Buffer;
  status: number | null;
  body: unknown;
  claimedAt: Date;
}

interface ClaimInput {
  organizationId: string;
  route: string;
  key: string;
  requestHash: Buffer;
  claimToken: string;
  now: Date;
  /** A row created before this is expired: the claim overwrites it. */
  expiredBefore: Date;
  /** An in-flight row claimed before this was abandoned (its process died): the claim takes it over. */
  abandonedBefore: Date;
}

/**
 * Claims the key in one statement: a new row, or an expired or abandoned one taken over. True
 * when this request owns the key now. Times come from the input (no now() in ON CONFLICT, see
 * docs/scaling.md).
 */
export async function claimKey(sql: Db, claim: ClaimInput): Promise<boolean> {
  const rows = await sql`
    INSERT INTO idempotency_keys AS k (organization_id, route, key, request_hash, claim_token, claimed_at, created_at, status, body)
    VALUES (${claim.organizationId}, ${claim.route}, ${claim.key}, ${claim.requestHash}, ${claim.claimToken}, ${claim.now}, ${claim.now}, NULL, NULL)
    ON CONFLICT (organization_id, route, key) DO UPDATE SET
      request_hash = excluded.request_hash, claim_token = excluded.claim_token,
      claimed_at = excluded.claimed_at, created_at = excluded.created_at, status = NULL, body = NULL
    WHERE k.created_at < ${claim.expiredBefore} OR (k.status IS NULL AND k.claimed_at < ${claim.abandonedBefore})
    RETURNING k.claim_token`;
  return rows.length === 1;
}

export async function findKey(sql: Db, organizationId: string, route: string, key: string): Promise<StoredKey | undefined> {
  const [row] = await sql<StoredKey[]>`
    SELECT request_hash AS "requestHash", status, body, claimed_at AS "claimedAt"
    FROM idempotency_keys
    WHERE organization_id = ${organizationId} AND route = ${route} AND key = ${key}`;
  return row;
}

/** Records the reply of the create that owns the claim. */
export async function completeKey(
  sql: Db,
  target: { organizationId: string; route: string; key: string; claimToken: string },
  status: number,
  body: unknown,
): Promise<void> {
  await sql`
    UPDATE idempotency_keys SET status = ${status}, body = ${sql.json(body as JSONValue)}
    WHERE organization_id = ${target.organizationId} AND route = ${target.route} AND key = ${target.key}
      AND claim_token = ${target.claimToken}`;
}

/** A failed create is not remembered: the key can be retried. */
export async function releaseKey(sql: Db, target: { organizationId: string; route: string; key: string; claimToken: string }): Promise<void> {
  await sql`
    DELETE FROM idempotency_keys
    WHERE organization_id = ${target.organizationId} AND route = ${target.route} AND key = ${target.key}
      AND claim_token = ${target.claimToken}`;
}

export async function deleteExpiredKeys(sql: Db, organizationId: string, expiredBefore: Date): Promise<void> {
  await sql`DELETE FROM idempotency_keys WHERE organization_id = ${organizationId} AND created_at < ${expiredBefore}`;
}
