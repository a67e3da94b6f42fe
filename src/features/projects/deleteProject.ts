import type { Ctx, VerbArgs } from '../../context.ts';
import { PROJECT_DELETED } from '../../db/announcements.ts';
import { Forbidden, NotFound } from '../../lib/errors.ts';
import { markProjectDeleted } from './queries.ts';
import { recordAudit } from '../audit/recordAudit.ts';
import { withTransaction } from '../../db/client.ts';

/** How long the request waits for the purge: a small project is gone entirely when it answers. */
const WAIT_FOR_PURGE_MS = 2000;

/** Who may delete projects: an API key and an owner's session (extensions.md, "Dashboard members"). */
function requireProjectDeleter(ctx: Ctx): void {
  if (ctx.actor.kind === 'user' && ctx.actor.role !== 'owner') {
    throw new Forbidden('Deleting projects needs an owner of this organization; ask one to do it or to make you an owner');
  }
}

/**
 * POST /api/projects/:projectId/delete: the project and everything in it. Marking it deleted
 * makes it disappear from every lookup at once; its rows are then removed by the purger
 * (docs/decisions/052-project-delete.md).
 */
export async function deleteProject({ ctx, input }: VerbArgs<{ projectId: string }>): Promise<{ id: string; deleted: true }> {
  requireProjectDeleter(ctx);
  const { services, organizationId } = ctx;
  // The entry names the project and outlives it: audit entries have no foreign key to projects.
  const id = await withTransaction(services.sql, async (tx) => {
    const marked = await markProjectDeleted(tx, organizationId, input.projectId);
    if (!marked) throw new NotFound('Project');
    await recordAudit(tx, ctx, { action: 'project.delete', target: { type: 'project', id: marked } });
    return marked;
  });
  services.bus.announce({ type: PROJECT_DELETED, organizationId, projectId: id });
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([services.purger.purge(organizationId, id), new Promise((resolve) => (timer = setTimeout(resolve, WAIT_FOR_PURGE_MS)))]);
  clearTimeout(timer);
  return { id, deleted: true };
}
