import type { App } from '../../http/app.ts';
import { requireOwner } from '../../http/auth.ts';
import { errors } from '../../http/schemas.ts';
import { listAudit } from './listAudit.ts';
import { AuditPage, AuditQuery } from './schemas.ts';

export default function auditRoutes(app: App): void {
  app.get(
    '/api/audit',
    {
      // Only a full key for every project reads the log (`write` access: read and ingest keys get
      // 403; `organization`: so do keys limited to some projects); of sessions, only owners'.
      config: { scope: { access: 'write', project: 'organization' } },
      schema: {
        tags: ['audit log'],
        operationId: 'listAudit',
        summary: 'Who did what and when, newest first (keyset pages; an owner or a full key)',
        querystring: AuditQuery,
        response: { 200: AuditPage, ...errors(400, 401, 403) },
      },
    },
    async (request, reply) => {
      if (request.ctx.actor.kind === 'user') requireOwner(request.ctx, 'Reading the audit log');
      reply.header('cache-control', 'no-store');
      return listAudit({ ctx: request.ctx, input: request.query });
    },
  );
}
