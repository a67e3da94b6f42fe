import type { VerbArgs } from '../../context.ts';
import { InvalidInput, NotFound } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import { codePointLength, hasNul } from '../../lib/text.ts';
import { type DestinationObject, destinationFromRow } from './destinationObject.ts';
import { checkCategoryFilter, checkGroupWindow } from './categoryFilter.ts';
import { checkDestinationTarget } from './destinationUrl.ts';
import type { DeliveryFormat } from '../delivery/formats.ts';
import { insertDestination } from './queries.ts';
import { newSigningSecret } from '../delivery/signing.ts';
import { recordAudit } from '../audit/recordAudit.ts';
import { withTransaction } from '../../db/client.ts';

const MAX_DESTINATION_NAME = 200;

interface CreateDestinationInput {
  projectId: string;
  name: string;
  url: string;
  /** May be left out for a mailto: URL (then "email"). */
  format?: DeliveryFormat;
  enabled?: boolean;
  categories?: string[] | null;
  groupWindowSeconds?: number;
}

export function checkDestinationName(raw: string): string {
  const name = raw.trim();
  if (!name) throw new InvalidInput('name is required');
  if (codePointLength(name) > MAX_DESTINATION_NAME || hasNul(name)) {
    throw new InvalidInput(`name must be at most ${MAX_DESTINATION_NAME} characters of text`);
  }
  return name;
}

export async function createDestination({ ctx, input }: VerbArgs<CreateDestinationInput>): Promise<DestinationObject> {
  const name = checkDestinationName(input.name);
  const categories = checkCategoryFilter(input.categories);
  const { url, format } = checkDestinationTarget(input.url, input.format, {
    mailer: ctx.services.mailer,
    allowPrivate: ctx.services.config.allowPrivateWebhookUrls,
  });
  const groupWindowSeconds = checkGroupWindow(input.groupWindowSeconds, format) ?? 0;
  const row = await withTransaction(ctx.services.sql, async (tx) => {
    const inserted = await insertDestination(tx, ctx.organizationId, {
      id: newId(16),
      projectId: input.projectId,
      name,
      url,
      format,
      enabled: input.enabled ?? true,
      secret: format === 'json' ? newSigningSecret() : null,
      categories,
      groupWindowSeconds,
    });
    if (!inserted) throw new NotFound('Project');
    await recordAudit(tx, ctx, { action: 'destination.create', target: { type: 'destination', id: inserted.id } });
    return inserted;
  });
  ctx.services.bus.announce({ type: 'destination.created', organizationId: ctx.organizationId, projectId: row.projectId, id: row.id });
  return destinationFromRow(row);
}
