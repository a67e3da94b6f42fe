import type { Static } from '@sinclair/typebox';
import type { VerbArgs } from '../../context.ts';
import { NotFound, RateLimited } from '../../lib/errors.ts';
import { withTransaction } from '../../db/client.ts';
import { recordAudit } from '../audit/recordAudit.ts';
import { newId } from '../../lib/ids.ts';
import type { EventObject } from '../events/eventObject.ts';
import { renderDeliveryBody } from '../delivery/formats.ts';
import { TEST_EVENT_ID } from '../delivery/attemptLog.ts';
import { requireProject } from '../projects/requireProject.ts';
import { requireEmail } from '../email/requireEmail.ts';
import { findDestination } from './queries.ts';
import { lockAndCountTests } from './testQueries.ts';
import { queueLeasedTestDelivery } from '../delivery/queueDeliveries.ts';
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

/** Tests per destination per window (extensions.md, "Destinations"; decision 176). */
const TESTS_PER_WINDOW = 10;
const TEST_WINDOW_SECONDS = 3600;

/**
 * Sends a sample event through the real delivery path (same body format, signing, address guard,
 * timeout and attempt log) with a single attempt, and answers with its outcome. Works on a
 * disabled destination too, so it can be checked before it is switched on.
 *
 * At most TESTS_PER_WINDOW an hour per destination, counted from its Test deliveries in the
 * database (so across processes), past which it is RateLimited with the seconds until one frees:
 * a Test sends to whatever address the URL names, and must not become a way to flood it. Each
 * Test is audited, in the transaction that counts it and creates its delivery.
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
      timeZone: config.timeZone,
    }),
    attempts: 0,
    maxAttempts: 1,
    destinationId: destination.id,
    url: destination.url,
    format: destination.format,
    secret: destination.secret,
    enabled: true,
  };
  await withTransaction(sql, async (tx) => {
    const scope = { organizationId: ctx.organizationId, destinationId: destination.id };
    const recent = await lockAndCountTests(tx, { ...scope, windowSeconds: TEST_WINDOW_SECONDS, limit: TESTS_PER_WINDOW });
    if (!recent) throw new NotFound('Destination');
    if (recent.count >= TESTS_PER_WINDOW) {
      throw new RateLimited(`At most ${TESTS_PER_WINDOW} Tests an hour per destination; try again in ${recent.freeInSeconds} s`, recent.freeInSeconds);
    }
    await queueLeasedTestDelivery(tx, { ...claimed, leaseMs: deliveries.leaseMs });
    await recordAudit(tx, ctx, { action: 'destination.test', target: { type: 'destination', id: destination.id } });
  });
  const outcome = await deliveries.deliver(claimed);
  ctx.services.bus.announce({ type: 'destination.updated', organizationId: ctx.organizationId, projectId: destination.projectId, id: destination.id });
  return { ok: outcome.ok, status: outcome.status, error: outcome.error };
}
