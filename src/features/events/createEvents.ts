import { Ajv } from 'ajv';
import type { VerbArgs } from '../../context.ts';
import { IdSpaceExhausted, ItemRefused, NotFound, RateLimited, ServiceError } from '../../lib/errors.ts';
import { countEventsCreated } from '../../metrics.ts';
import { resolveProjectReference } from '../projects/resolveProjectReference.ts';
import { formatImportSchemaError } from '../transfer/rowErrors.ts';
import { announceCreated } from './createEvent.ts';
import { type EventObject, eventFromDraft } from './eventObject.ts';
import { CreateEventBody } from './schemas.ts';
import { type EventDraft, type EventInput, validateEventInput } from './validateEventInput.ts';

/** The options of the HTTP layer's own validator (src/app.ts), so an item fails as POST /api/events would. */
const ajv = new Ajv({ coerceTypes: false, removeAdditional: false, allErrors: false, useDefaults: true, strict: false });
const checkItem = ajv.compile<EventInput>(CreateEventBody);

/** An item's checked draft, with the body it came from (the reply takes its tags and metadata as sent). */
interface CheckedItem {
  draft: EventDraft;
  input: EventInput;
}

/**
 * POST /api/events/batch (extensions.md, "Batch ingestion"): every item checked as POST
 * /api/events checks one, in order, so that a refusal names the first refused item; then one
 * statement writes them all (the batcher's insertWhole), or none, and the reply lists them in
 * the items' order with increasing ids. Each item names its project by id or name, as /v1/log does.
 */
export async function createEvents({ ctx, input }: VerbArgs<{ events: unknown[] }>): Promise<EventObject[]> {
  const items = await checkItems({ ctx, input });
  const drafts = items.map((item) => item.draft);
  const outcome = await ctx.services.ingest.insertWhole(ctx.organizationId, drafts);
  if ('refused' in outcome) {
    if (outcome.refused === 'ids') throw new IdSpaceExhausted('event');
    throw new RateLimited("This batch would pass the organization's monthly event cap; nothing was written");
  }
  // Only when a project was deleted while its batch was on its way (decision 185).
  const gone = outcome.missing[0];
  if (gone !== undefined) throw new ItemRefused(gone, new NotFound('Project'));
  countEventsCreated(ctx.actor.kind === 'user' ? 'dashboard' : 'api', outcome.inserted.length);
  const rows = [...outcome.inserted].sort((a, b) => a.ord - b.ord);
  return rows.map((row) => {
    const { draft, input: item } = items[row.ord]!;
    announceCreated(ctx.services.bus, { organizationId: ctx.organizationId, projectId: draft.projectId, id: row.id, notify: draft.notify });
    return eventFromDraft(draft, row.id, row.createdMicros, item);
  });
}

/** Every item's draft, its project resolved; the first item refused throws with its index. */
async function checkItems({ ctx, input }: VerbArgs<{ events: unknown[] }>): Promise<CheckedItem[]> {
  // A batch names a handful of projects: each reference is looked up once.
  const projects = new Map<string, Promise<string>>();
  const checked: CheckedItem[] = [];
  for (const [index, item] of input.events.entries()) {
    try {
      if (!checkItem(item)) {
        const errors = (checkItem.errors ?? []).map((error) => ({ ...error, instancePath: `/events/${index}${error.instancePath}` }));
        throw formatImportSchemaError(errors);
      }
      const draft = validateEventInput(item);
      let projectId = projects.get(item.project);
      if (!projectId) projects.set(item.project, (projectId = resolveProjectReference(ctx, item.project)));
      draft.projectId = await projectId;
      // A key limited to some projects meets every other project as another organization's.
      if (ctx.projects && !ctx.projects.includes(draft.projectId)) throw new NotFound('Project');
      checked.push({ draft, input: item });
    } catch (error) {
      if (error instanceof ServiceError) throw new ItemRefused(index, error);
      throw error;
    }
  }
  return checked;
}
