import type { Static } from '@sinclair/typebox';
import { microsToIso } from '../../lib/time.ts';
import type { EventRow } from './queries.ts';
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

/** The reply to a create, built from what was written without reading it back. */
export function eventFromDraft(draft: EventDraft, id: number, createdMicros: string): EventObject {
  return {
    id,
    projectId: draft.projectId,
    category: draft.category,
    title: draft.title,
    description: draft.description,
    icon: draft.icon,
    tags: draft.tags === null ? null : (JSON.parse(draft.tags) as Record<string, unknown>),
    metadata: draft.metadata === null ? null : JSON.parse(draft.metadata),
    url: draft.url,
    user_id: draft.userId,
    notify: draft.notify,
    favorited: false,
    createdAt: microsToIso(createdMicros),
  };
}
