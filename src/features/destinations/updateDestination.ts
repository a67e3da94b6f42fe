import type { VerbArgs } from '../../context.ts';
import { NotFound } from '../../lib/errors.ts';
import { checkCategoryFilter, checkGroupWindow } from './categoryFilter.ts';
import { checkDestinationName } from './createDestination.ts';
import { type DestinationObject, destinationFromRow } from './destinationObject.ts';
import { checkDestinationTarget } from './destinationUrl.ts';
import { findDestination, updateDestination as update } from './queries.ts';
import { recordAudit } from '../audit/recordAudit.ts';
import { withTransaction } from '../../db/client.ts';
import { isChannelFormat } from '../delivery/channels/index.ts';
import { keepMaskedCredentials } from '../delivery/channels/credentials.ts';

interface UpdateDestinationInput {
  destinationId: string;
  name?: string;
  url?: string;
  categories?: string[] | null;
  groupWindowSeconds?: number;
}

/**
 * PATCH: the fields given replace the saved ones, each checked as at creation (the URL by the
 * address guard). Deliveries already queued keep their URL-independent body and go to the new
 * URL; the filter applies to the events fanned out from now on.
 */
export async function updateDestination({ ctx, input }: VerbArgs<UpdateDestinationInput>): Promise<DestinationObject> {
  const change = {
    ...(input.name !== undefined ? { name: checkDestinationName(input.name) } : {}),
    ...(input.url !== undefined ? { url: await checkNewUrl(ctx, input.destinationId, input.url) } : {}),
    ...(input.categories !== undefined ? { categories: checkCategoryFilter(input.categories) } : {}),
    ...(input.groupWindowSeconds !== undefined ? { groupWindowSeconds: await checkWindowFor(ctx, input.destinationId, input.groupWindowSeconds) } : {}),
  };
  const row = await withTransaction(ctx.services.sql, async (tx) => {
    const updated = await update(tx, ctx.organizationId, input.destinationId, change);
    if (!updated) throw new NotFound('Destination');
    await recordAudit(tx, ctx, { action: 'destination.update', target: { type: 'destination', id: updated.id } });
    return updated;
  });
  ctx.services.bus.announce({ type: 'destination.updated', organizationId: ctx.organizationId, projectId: row.projectId, id: row.id });
  return destinationFromRow(row);
}

/** A new URL keeps the destination's kind: an email destination takes mailto: only, a webhook a web URL. */
async function checkNewUrl(ctx: VerbArgs<unknown>['ctx'], destinationId: string, url: string): Promise<string> {
  const saved = await findDestination(ctx.services.sql, ctx.organizationId, destinationId);
  if (!saved) throw new NotFound('Destination');
  const services = { mailer: ctx.services.mailer, allowPrivate: ctx.services.config.allowPrivateWebhookUrls };
  // A URL sent back as shown keeps the credentials it was shown without.
  const next = isChannelFormat(saved.format) ? keepMaskedCredentials(url, saved.url, saved.format) : url;
  return checkDestinationTarget(next, saved.format, services).url;
}

/** The window checked against the destination's format (none on json). */
async function checkWindowFor(ctx: VerbArgs<unknown>['ctx'], destinationId: string, value: number): Promise<number> {
  const saved = await findDestination(ctx.services.sql, ctx.organizationId, destinationId);
  if (!saved) throw new NotFound('Destination');
  return checkGroupWindow(value, saved.format) as number;
}
