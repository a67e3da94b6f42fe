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

export async function updateRole(sql: Db, organizationId: string, memberId: string, role: Role): Promise<MemberRow | undefined> {
  const [row] = await sql<MemberRow[]>`
    UPDATE users SET role = ${role} WHERE organization_id = ${organizationId} AND id = ${memberId}
    RETURNING id, email, role, created_at AS "createdAt"`;
  return row;
}

/**
 * The account, its sessions (and push subscriptions, by cascade), its sign-in email and the
 * routing rows of its sessions. The email's row goes, so the address can be invited again.
 */
export async function deleteMember(sql: Db, organizationId: string, memberId: string): Promise<boolean> {
  const sessions = await sql<{ idHash: Buffer }[]>`
    DELETE FROM sessions WHERE organization_id = ${organizationId} AND user_id = ${memberId}
    RETURNING id_hash AS "idHash"`;
  const [deleted] = await sql<{ email: string }[]>`
    DELETE FROM users WHERE organization_id = ${organizationId} AND id = ${memberId} RETURNING email`;
  if (!deleted) return false;
  await sql`DELETE FROM user_emails WHERE email = lower(${deleted.email}) AND user_id = ${memberId}`;
  const hashes = sessions.map((session) => session.idHash);
  if (hashes.length > 0) await sql`DELETE FROM credentials WHERE hash IN ${sql(hashes)} AND kind = 'session'`;
  return true;
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

/**
 * The new invitation and its token's routing row; the email's pending invitation, if any, goes
 * first with its routing row, so its link stops working. Run in a transaction.
 */
export async function replaceInvitation(
  sql: Db,
  row: { organizationId: string; id: string; email: string; role: Role; tokenHash: Buffer; invitedBy: string | null; lifetimeSeconds: number },
): Promise<InvitationRow> {
  const replaced = await sql<{ tokenHash: Buffer }[]>`
    DELETE FROM invitations WHERE organization_id = ${row.organizationId} AND lower(email) = lower(${row.email})
    RETURNING token_hash AS "tokenHash"`;
  const hashes = replaced.map((old) => old.tokenHash);
  if (hashes.length > 0) await sql`DELETE FROM credentials WHERE hash IN ${sql(hashes)} AND kind = 'invitation'`;
  // A concurrent invitation of the same email may have been inserted since: this one wins.
  const [inserted] = await sql<InvitationRow[]>`
    WITH route AS (
      INSERT INTO credentials (hash, kind, organization_id) VALUES (${row.tokenHash}, 'invitation', ${row.organizationId})
    )
    INSERT INTO invitations (organization_id, id, email, role, token_hash, invited_by, created_at, expires_at)
    VALUES (${row.organizationId}, ${row.id}, ${row.email}, ${row.role}, ${row.tokenHash}, ${row.invitedBy},
            now(), now() + make_interval(secs => ${row.lifetimeSeconds}))
    ON CONFLICT (organization_id, lower(email)) DO UPDATE
      SET id = excluded.id, email = excluded.email, role = excluded.role, token_hash = excluded.token_hash,
          invited_by = excluded.invited_by, created_at = excluded.created_at, expires_at = excluded.expires_at
    RETURNING id, email, role, expires_at AS "expiresAt"`;
  return inserted!;
}

/**
 * Uses the invitation up: deleted (with its routing row) if it is live, so of two accepts the
 * second waits for the first and then finds nothing. Run in the accepting transaction, so an
 * accept that fails afterwards leaves the token unused.
 */
export async function consumeInvitation(sql: Db, organizationId: string, tokenHash: Buffer): Promise<InvitationRow | undefined> {
  const [row] = await sql<InvitationRow[]>`
    DELETE FROM invitations
    WHERE organization_id = ${organizationId} AND token_hash = ${tokenHash} AND expires_at > now()
    RETURNING id, email, role, expires_at AS "expiresAt"`;
  if (row) await sql`DELETE FROM credentials WHERE hash = ${tokenHash} AND kind = 'invitation'`;
  return row;
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

/** Deletes an invitation and its token's routing row, so its link stops working; false when there is none. */
export async function deleteInvitation(sql: Db, organizationId: string, invitationId: string): Promise<boolean> {
  const [deleted] = await sql<{ tokenHash: Buffer }[]>`
    DELETE FROM invitations WHERE organization_id = ${organizationId} AND id = ${invitationId}
    RETURNING token_hash AS "tokenHash"`;
  if (!deleted) return false;
  await sql`DELETE FROM credentials WHERE hash = ${deleted.tokenHash} AND kind = 'invitation'`;
  return true;
}

/**
 * A new token and a new lifetime for an invitation, keeping its id, email and role: the old link
 * stops working. Run in a transaction; undefined when there is no such invitation.
 */
export async function renewInvitation(
  sql: Db,
  row: { organizationId: string; id: string; tokenHash: Buffer; lifetimeSeconds: number },
): Promise<InvitationRow | undefined> {
  const [old] = await sql<{ tokenHash: Buffer }[]>`
    SELECT token_hash AS "tokenHash" FROM invitations
    WHERE organization_id = ${row.organizationId} AND id = ${row.id} FOR UPDATE`;
  if (!old) return undefined;
  await sql`DELETE FROM credentials WHERE hash = ${old.tokenHash} AND kind = 'invitation'`;
  await sql`INSERT INTO credentials (hash, kind, organization_id) VALUES (${row.tokenHash}, 'invitation', ${row.organizationId})`;
  const [renewed] = await sql<InvitationRow[]>`
    UPDATE invitations
    SET token_hash = ${row.tokenHash}, created_at = now(), expires_at = now() + make_interval(secs => ${row.lifetimeSeconds})
    WHERE organization_id = ${row.organizationId} AND id = ${row.id}
    RETURNING id, email, role, expires_at AS "expiresAt"`;
  return renewed;
}
