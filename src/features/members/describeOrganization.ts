import type { Role, VerbArgs } from '../../context.ts';
import { NotFound } from '../../lib/errors.ts';
import { findOrganizationUsage } from './queries.ts';

interface OrganizationObject {
  id: string;
  name: string;
  monthlyEventCap: number | null;
  usage: { month: string; events: number };
  /** The caller's role, so the dashboard shows a member no owner-only actions; null for an API key. */
  role: Role | null;
}

/** GET /api/organization: the Organization page (name, id, this month's events against the cap). */
export async function describeOrganization({ ctx }: VerbArgs<void>): Promise<OrganizationObject> {
  const row = await findOrganizationUsage(ctx.services.sql, ctx.organizationId);
  if (!row) throw new NotFound('Organization');
  return {
    id: row.id,
    name: row.name,
    monthlyEventCap: row.monthlyEventCap,
    usage: { month: row.month, events: row.events },
    role: ctx.actor.kind === 'user' ? ctx.actor.role : null,
  };
}
