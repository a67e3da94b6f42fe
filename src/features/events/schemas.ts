import { Type } from '@sinclair/typebox';
import { MAX_SEARCH_LENGTH } from '../../lib/limits.ts';

/** The event object every endpoint returns (POST /api/events, the feed, hook replies). */
export const Event = Type.Object({
  id: Type.Integer(),
  projectId: Type.String(),
  category: Type.String(),
  title: Type.String(),
  description: Type.Union([Type.String(), Type.Null()]),
  icon: Type.Union([Type.String(), Type.Null()]),
  tags: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]),
  metadata: Type.Union([Type.Unknown(), Type.Null()], { description: 'object, array or null' }),
  url: Type.Union([Type.String(), Type.Null()]),
  user_id: Type.Union([Type.String(), Type.Null()]),
  notify: Type.Boolean(),
  favorited: Type.Boolean(),
  createdAt: Type.String({ format: 'date-time' }),
});

/**
 * Types are checked here; the rules a schema cannot express (code-point lengths, metadata bytes,
 * created_at range) are checked by `validateEventInput`, so both answer 400 with a clear message.
 */
export const CreateEventBody = Type.Object({
  project: Type.String(),
  category: Type.String(),
  title: Type.String(),
  description: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  icon: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  tags: Type.Optional(Type.Union([Type.Object({}, { additionalProperties: true }), Type.Null()])),
  metadata: Type.Optional(Type.Union([Type.Object({}, { additionalProperties: true }), Type.Array(Type.Unknown()), Type.Null()])),
  url: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  user_id: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  notify: Type.Optional(Type.Boolean()),
  created_at: Type.Optional(Type.Union([Type.Number(), Type.Null()])),
});

export const ListEventsQuery = Type.Object({
  project: Type.Optional(Type.String()),
  category: Type.Optional(Type.String()),
  search: Type.Optional(Type.String({ maxLength: MAX_SEARCH_LENGTH, description: `At most ${MAX_SEARCH_LENGTH} characters` })),
  cursor: Type.Optional(Type.String()),
  limit: Type.Optional(Type.String({ description: 'Integer; clamped to 1-100; default 50' })),
  tag: Type.Optional(Type.Union([Type.String(), Type.Array(Type.String())], { description: 'key:value; repeatable; every tag must match' })),
  user_id: Type.Optional(Type.String({ description: 'Exact user_id' })),
  favorited: Type.Optional(Type.String({ description: 'true or false' })),
  since: Type.Optional(Type.String({ description: 'Unix seconds: createdAt >= since' })),
  until: Type.Optional(Type.String({ description: 'Unix seconds: createdAt < until' })),
  group: Type.Optional(Type.String({ description: "A group's id: the events of its users (an unknown group is 404)" })),
});

export const EventPage = Type.Object({
  events: Type.Array(Event),
  nextCursor: Type.Union([Type.String(), Type.Null()]),
});

export const EventIdParams = Type.Object({ eventId: Type.String() });
export const FavoriteResult = Type.Object({ id: Type.Integer(), favorited: Type.Boolean() });

export const CategoriesQuery = Type.Object({ project: Type.Optional(Type.String()) });
export const CategoryCount = Type.Object({ name: Type.String(), count: Type.Integer() });

/** Items of one POST /api/events/batch (extensions.md, "Batch ingestion"). */
const MAX_BATCH_ITEMS = 1000;

/** POST /api/events/batch, as the OpenAPI document shows it: each item is a POST /api/events body, its project an id or a name. */
export const CreateBatchBody = Type.Object({
  events: Type.Array(CreateEventBody, {
    minItems: 1,
    maxItems: MAX_BATCH_ITEMS,
    description: `1-${MAX_BATCH_ITEMS} events; each item's project is its id or exact name`,
  }),
});

/**
 * What the route itself checks of a batch: the envelope. The items are checked one by one by
 * the verb (createEvents.ts), in order, so that a refusal names the first refused item.
 */
export const BatchEnvelope = Type.Object({
  events: Type.Array(Type.Unknown(), { minItems: 1, maxItems: MAX_BATCH_ITEMS }),
});

export const BatchCreated = Type.Object({ events: Type.Array(Event) });
