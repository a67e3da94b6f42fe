import type { Static } from '@sinclair/typebox';
import type { VerbArgs } from '../../context.ts';
import { InvalidInput } from '../../lib/errors.ts';
import { createEvent } from '../events/createEvent.ts';
import type { EventObject } from '../events/eventObject.ts';
import { resolveProjectReference } from '../projects/resolveProjectReference.ts';
import type { LogBody } from './schemas.ts';

/** Every character CommonMark (and GitHub's tables and strikethrough) can read as markup. */
const MARKDOWN_MARKUP = /[\\`*_{}[\]<>()#+\-.!|~&=]/g;

/** `parser: "text"`: the description shows literally wherever it is rendered as Markdown. */
function escapeMarkdown(text: string): string {
  return text.replace(MARKDOWN_MARKUP, '\\$&');
}

/** POST /v1/log: LogSnag's field names onto POST /api/events (extensions.md, "LogSnag-compatible ingestion"). */
export async function logEvent({ ctx, input }: VerbArgs<Static<typeof LogBody>>): Promise<EventObject> {
  if (input.channel.trim() === '') throw new InvalidInput('channel is required');
  if (input.event.trim() === '') throw new InvalidInput('event is required');
  const project = await resolveProjectReference(ctx, input.project);
  const description = input.parser === 'text' && typeof input.description === 'string' ? escapeMarkdown(input.description) : input.description;
  return createEvent({
    ctx,
    input: {
      project,
      category: input.channel,
      title: input.event,
      description,
      icon: input.icon,
      notify: input.notify ?? undefined,
      tags: input.tags,
      user_id: input.user_id,
      created_at: input.timestamp,
    },
  });
}
