import type { Role } from '../../context.ts';
import type { Db } from '../../db/client.ts';

interface MemberRow {
  id: string;
  email: string;
  role: Role;
  createdAt: Date;
}

interface InvitationRow {
  id: string;
  email: string;
  role: Role;
  expiresAt: Date;
}

// ---- Members ----------------------------------------------------------------------------------

export async function listMembers(sql: Db, organizationId: string): Promise<MemberRow[]> {
  return sql<MemberRow[]>`
    SELECT id, email, role, created_at AS "createdAt"
    FROM users WHERE organization_id = ${organizationId}
    ORDER BY created_at, id`;
}

export async function findMember(sql: Db, organizationId: string, memberId: string): Promise<MemberRow | undefined> {
  const [row] = await sql<MemberRow[]>`
    SELECT id, email, role, created_at AS "createdAt"
    FROM users WHERE organization_id = ${organizationId} AND id = ${memberId}`;
  return row;
}

/**
 * Membership changes of one organization take turns on its row, so two owners demoting or
 * removing each other at once cannot leave it without an owner. NO KEY UPDATE does not wait for
 * (nor block) the key-share locks that event writes take through their foreign keys.
 */
export async function lockMembership(sql: Db, organizationId: string): Promise<void> {
  await sql`SELECT id FROM organizations WHERE id = ${organizationId} FOR NO KEY UPDATE`;
}

export async function countOwners(sql: Db, organizationId: string): Promise<number> {
  const [row] = await sql<{ owners: number }[]>`
    SELECT count(*)::int AS owners FROM users WHERE organization_id = ${organizationId} AND role = 'owner'`;
  return row?.owners ?? 0;
}

/** Whether this organization already has an account with this email (any case). */
export async function isMemberEmail(sql: Db, organizationId: string, email: string): Promise<boolean> {
  const [row] = await sql<{ found: boolean }[]>`
    SELECT EXISTS (
      SELECT 1 FROM users WHERE organization_id = ${organizationId} AND lower(email) = lower(${email})
    ) AS found`;
  return row?.found ?? false;
}

// ---- Invitations ------------------------------------------------------------------------------

// Each write answers the token hashes it deleted; members/invitationWrites.ts keeps the tokens'
// routing rows in step.

/** Deletes the email's pending invitation, if any (any case); the token hashes it had. */
export async function deleteInvitationsOfEmail(sql: Db, organizationId: string, email: string): Promise<Buffer[]> {
  const replaced = await sql<{ tokenHash: Buffer }[]>`
    DELETE FROM invitations WHERE organization_id = ${organizationId} AND lower(email) = lower(${email})
    RETURNING token_hash AS "tokenHash"`;
  return replaced.map((old) => old.tokenHash);
}

/** A new invitation; a concurrent invitation of the same email inserted meanwhile is replaced by this one. */
export async function upsertInvitation(
  sql: Db,
  row: { organizationId: string; id: string; email: string; role: Role; tokenHash: Buffer; invitedBy: string | null; lifetimeSeconds: number },
): Promise<InvitationRow> {
  const [inserted] = await sql<InvitationRow[]>`
    INSERT INTO invitations (organization_id, id, email, role, token_hash, invited_by, created_at, expires_at)
    VALUES (${row.organizationId}, ${row.id}, ${row.email}, ${row.role}, ${row.tokenHash}, ${row.invitedBy},
            now(), now() + make_interval(secs => ${row.lifetimeSeconds}))
    ON CONFLICT (organization_id, lower(email)) DO UPDATE
      SET id = excluded.id, email = excluded.email, role = excluded.role, token_hash = excluded.token_hash,
          invited_by = excluded.invited_by, created_at = excluded.created_at, expires_at = excluded.expires_at
    RETURNING id, email, role, expires_at AS "expiresAt"`;
  return inserted!;
}

/** Deletes the token's invitation if it is live (unexpired). */
export async function deleteLiveInvitationByToken(sql: Db, organizationId: string, tokenHash: Buffer): Promise<InvitationRow | undefined> {
  const [row] = await sql<InvitationRow[]>`
    DELETE FROM invitations
    WHERE organization_id = ${organizationId} AND token_hash = ${tokenHash} AND expires_at > now()
    RETURNING id, email, role, expires_at AS "expiresAt"`;
  return row;
}

/** Deletes the invitation (only a live one with `live`); its token's hash, undefined when there was none. */
export async function deleteInvitationById(sql: Db, organizationId: string, invitationId: string, { live }: { live: boolean }): Promise<Buffer | undefined> {
  const [deleted] = await sql<{ tokenHash: Buffer }[]>`
    DELETE FROM invitations WHERE organization_id = ${organizationId} AND id = ${invitationId}
      ${live ? sql`AND expires_at > now()` : sql``}
    RETURNING token_hash AS "tokenHash"`;
  return deleted?.tokenHash;
}

/** The invitation's token hash, its row locked until the transaction ends; undefined when there is none. */
export async function lockInvitation(sql: Db, organizationId: string, invitationId: string): Promise<Buffer | undefined> {
  const [old] = await sql<{ tokenHash: Buffer }[]>`
    SELECT token_hash AS "tokenHash" FROM invitations
    WHERE organization_id = ${organizationId} AND id = ${invitationId} FOR UPDATE`;
  return old?.tokenHash;
}

/** A new token and a new lifetime for an invitation, keeping its id, email and role. */
export async function updateInvitationToken(
  sql: Db,
  row: { organizationId: string; id: string; tokenHash: Buffer; lifetimeSeconds: number },
): Promise<InvitationRow | undefined> {
  const [renewed] = await sql<InvitationRow[]>`
    UPDATE invitations
    SET token_hash = ${row.tokenHash}, created_at = now(), expires_at = now() + make_interval(secs => ${row.lifetimeSeconds})
    WHERE organization_id = ${row.organizationId} AND id = ${row.id}
    RETURNING id, email, role, expires_at AS "expiresAt"`;
  return renewed;
}

// ---- Organization -----------------------------------------------------------------------------

interface OrganizationUsageRow {
  id: string;
  name: string;
  monthlyEventCap: number | null;
  month: string;
  events: number;
}

/** The organization and the events it created this calendar month (UTC), as the cap counts them. */
export async function findOrganizationUsage(sql: Db, organizationId: string): Promise<OrganizationUsageRow | undefined> {
  const [row] = await sql<OrganizationUsageRow[]>`
    SELECT o.id, o.name, o.monthly_event_cap AS "monthlyEventCap",
           to_char(m.month, 'YYYY-MM') AS month, coalesce(u.events, 0)::int AS events
    FROM organizations o
    CROSS JOIN (SELECT date_trunc('month', now() AT TIME ZONE 'UTC')::date AS month) m
    LEFT JOIN organization_usage u ON u.organization_id = o.id AND u.month = m.month
    WHERE o.id = ${organizationId}`;
  return row;
}

// ---- Pending invitations ----------------------------------------------------------------------

interface PendingInvitationRow extends InvitationRow {
  createdAt: Date;
}

/**
 * The organization's invitations not yet accepted or revoked, newest first; expired ones too, so
 * an owner sees them and can send a new link. One row per email at most (a new invitation of an
 * email replaces its pending one), so the list is bounded by the people invited.
 */
export async function listInvitations(sql: Db, organizationId: string): Promise<PendingInvitationRow[]> {
  return sql<PendingInvitationRow[]>`
    SELECT id, email, role, created_at AS "createdAt", expires_at AS "expiresAt"
    FROM invitations WHERE organization_id = ${organizationId}
    ORDER BY created_at DESC, id`;
}

/** The live (unexpired) invitation of a token, read only: the accept page's preview. */
export async function findLiveInvitation(sql: Db, organizationId: string, tokenHash: Buffer): Promise<InvitationRow | undefined> {
  const [row] = await sql<InvitationRow[]>`
    SELECT id, email, role, expires_at AS "expiresAt"
    FROM invitations
    WHERE organization_id = ${organizationId} AND token_hash = ${tokenHash} AND expires_at > now()`;
  return row;
}
