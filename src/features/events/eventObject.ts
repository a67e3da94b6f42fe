import type { Static } from '@sinclair/typebox';
import { microsToIso } from '../../lib/time.ts';
import type { EventRow } from './queries.ts';

/** A stored event as the statements of this feature read it: other features that hold one take the type from here. */
export type { EventRow };
import type { Event } from './schemas.ts';
import type { EventDraft } from './validateEventInput.ts';

export type EventObject = Static<typeof Event>;

export function eventFromRow(row: EventRow): EventObject {
  return {
    id: row.id,
    projectId: row.projectId,
    category: row.category,
    title: row.title,
    description: row.description,
    icon: row.icon,
    tags: row.tags,
    metadata: row.metadata ?? null,
    url: row.url,
    user_id: row.user_id,
    notify: row.notify,
    favorited: row.favorited,
    createdAt: microsToIso(row.createdMicros),
  };
}

/**
 * The reply to a create, built from what was written without reading it back. `parsed` is the
 * request's own tags and metadata, whose JSON text the draft holds: the reply takes them as they
 * are rather than parsing that text again.
 */
export function eventFromDraft(
  draft: EventDraft,
  id: number,
  createdMicros: string,
  parsed: { tags?: Record<string, unknown> | null; metadata?: unknown },
): EventObject {
  return {
    id,
    projectId: draft.projectId,
    category: draft.category,
    title: draft.title,
    description: draft.description,
    icon: draft.icon,
    tags: parsed.tags ?? null,
    metadata: parsed.metadata ?? null,
    url: draft.url,
    user_id: draft.userId,
    notify: draft.notify,
    favorited: false,
    createdAt: microsToIso(createdMicros),
  };
}
