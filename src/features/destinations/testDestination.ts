import type { Static } from '@sinclair/typebox';
import type { VerbArgs } from '../../context.ts';
import { NotFound } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import type { EventObject } from '../events/eventObject.ts';
import { renderDeliveryBody } from '../delivery/formats.ts';
import { TEST_EVENT_ID } from '../delivery/attemptLog.ts';
import { requireProject } from '../projects/requireProject.ts';
import { requireEmail } from '../email/requireEmail.ts';
import { findDestination, insertLeasedDelivery } from './queries.ts';
import type { TestResult } from './schemas.ts';
import { newWebhookId } from '../delivery/signing.ts';

function sampleEvent(projectId: string, baseUrl: string, now = new Date()): EventObject {
  return {
    id: TEST_EVENT_ID,
    projectId,
    category: 'test',
    title: 'Test delivery from Eventlog',
    description: 'If you can read this, the destination works.',
    icon: '🧪',
    tags: null,
    metadata: null,
    url: `${baseUrl}/app/p/${encodeURIComponent(projectId)}/settings`,
    user_id: null,
    notify: true,
    favorited: false,
    createdAt: now.toISOString(),
  };
}

/**
 * Sends a sample event through the real delivery path (same body format, signing, address guard,
 * timeout and attempt log) with a single attempt, and answers with its outcome. Works on a
 * disabled destination too, so it can be checked before it is switched on.
 */
export async function testDestination({ ctx, input }: VerbArgs<{ destinationId: string }>): Promise<Static<typeof TestResult>> {
  const { sql, config, deliveries } = ctx.services;
  const destination = await findDestination(sql, ctx.organizationId, input.destinationId);
  if (!destination) throw new NotFound('Destination');
  if (destination.format === 'email') requireEmail(ctx.services.mailer);
  const project = await requireProject(ctx, destination.projectId);
  const now = new Date();
  const claimed = {
    organizationId: ctx.organizationId,
    id: newId(16),
    leaseToken: newId(16),
    eventId: TEST_EVENT_ID,
    webhookId: newWebhookId(),
    body: renderDeliveryBody(destination.format, sampleEvent(destination.projectId, config.baseUrl, now), now, {
      projectName: project.name,
      baseUrl: config.baseUrl,
    }),
    attempts: 0,
    maxAttempts: 1,
    destinationId: destination.id,
    url: destination.url,
    format: destination.format,
    secret: destination.secret,
    enabled: true,
  };
  await insertLeasedDelivery(sql, { ...claimed, leaseMs: deliveries.leaseMs });
  const outcome = await deliveries.deliver(claimed);
  ctx.services.bus.announce({ type: 'destination.updated', organizationId: ctx.organizationId, projectId: destination.projectId, id: destination.id });
  return { ok: outcome.ok, status: outcome.status, error: outcome.error };
}
