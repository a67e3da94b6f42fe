import { Type } from '@sinclair/typebox';

const Format = Type.Union(
  [
    Type.Literal('json'),
    Type.Literal('text'),
    Type.Literal('embed'),
    Type.Literal('email'),
    Type.Literal('telegram'),
    Type.Literal('ntfy'),
    Type.Literal('pushover'),
    Type.Literal('teams'),
    Type.Literal('googlechat'),
    Type.Literal('matrix'),
    Type.Literal('gotify'),
  ],
  {
    description:
      'json: signed envelope; text: {text} (Slack); embed: {embeds} (Discord); email: one email per event to the mailto: addresses; ' +
      "telegram, ntfy, pushover, teams, googlechat, matrix, gotify: the service's own API at its URL (credentials shown as ***)",
  },
);

const LastStatus = Type.Union([
  Type.Object({
    ok: Type.Boolean(),
    at: Type.String({ format: 'date-time' }),
    status: Type.Union([Type.Integer(), Type.Null()]),
    error: Type.Union([Type.String(), Type.Null()]),
  }),
  Type.Null(),
]);

export const Destination = Type.Object({
  id: Type.String(),
  projectId: Type.String(),
  name: Type.String(),
  url: Type.String(),
  format: Format,
  enabled: Type.Boolean(),
  secret: Type.Union([Type.String(), Type.Null()], { description: 'whsec_... signing secret of json destinations' }),
  lastStatus: LastStatus,
  categories: Type.Union([Type.Array(Type.String()), Type.Null()], {
    description: 'null: every notify event of the project; otherwise only notify events of these categories',
  }),
  disabledReason: Type.Union([Type.String(), Type.Null()], { description: 'Why the destination was disabled automatically' }),
  groupWindowSeconds: Type.Integer({ description: '0: each notify event is its own message; 10-3600: events of a window go as one message' }),
  createdAt: Type.String({ format: 'date-time' }),
});

const CategoryFilter = Type.Union([Type.Array(Type.String(), { minItems: 1 }), Type.Null()], {
  description: 'null (every category) or a non-empty array of category names',
});

export const CreateDestinationBody = Type.Object({
  name: Type.String(),
  url: Type.String({ description: 'http(s) for a webhook, or mailto: with 1-10 comma-separated addresses' }),
  format: Type.Optional(Format),
  enabled: Type.Optional(Type.Boolean()),
  categories: Type.Optional(CategoryFilter),
  groupWindowSeconds: Type.Optional(Type.Number({ description: '0 (default) or 10-3600; not on json' })),
});

export const UpdateDestinationBody = Type.Object(
  {
    name: Type.Optional(Type.String()),
    url: Type.Optional(Type.String()),
    categories: Type.Optional(CategoryFilter),
    groupWindowSeconds: Type.Optional(Type.Number({ description: '0 or 10-3600; not on json' })),
  },
  { additionalProperties: false },
);

export const ReplayFailedBody = Type.Object({ since: Type.Number({ description: 'Unix seconds' }) });
export const ReplayFailedResult = Type.Object({ queued: Type.Integer({ description: 'Events queued again' }) });

export const Health = Type.Object({
  window: Type.Integer({ description: 'How many of the latest finished deliveries are looked at (50)' }),
  deliveries: Type.Integer({ description: 'Finished deliveries in the window, Test deliveries aside' }),
  succeeded: Type.Integer(),
  successRate: Type.Union([Type.Number(), Type.Null()], { description: 'succeeded / deliveries; null before the first' }),
});

export const TestResult = Type.Object({
  ok: Type.Boolean(),
  status: Type.Union([Type.Integer(), Type.Null()]),
  error: Type.Union([Type.String(), Type.Null()]),
});

const Attempt = Type.Object({
  at: Type.String({ format: 'date-time' }),
  status: Type.Union([Type.Integer(), Type.Null()]),
  durationMs: Type.Union([Type.Integer(), Type.Null()]),
  error: Type.Union([Type.String(), Type.Null()]),
  response: Type.Union([Type.String(), Type.Null()], { description: 'The first 1 KB of the answer' }),
  note: Type.Union([Type.String(), Type.Null()], {
    description: 'What the receiver said beyond its status: an Eventlog hook that stored the event without notify (no loops) says why',
  }),
});

const Delivery = Type.Object({
  id: Type.String(),
  eventId: Type.Integer({ description: '0 for a Test delivery' }),
  eventTitle: Type.Union([Type.String(), Type.Null()], { description: "The event's title; null for a Test delivery or a deleted event" }),
  webhookId: Type.String({ description: 'The webhook-id header: the same on every attempt and replay' }),
  status: Type.Union([Type.Literal('pending'), Type.Literal('succeeded'), Type.Literal('failed')]),
  eventIds: Type.Array(Type.Integer(), { description: "The delivery's events: one, or a group's; empty for a Test delivery" }),
  attempts: Type.Array(Attempt),
  createdAt: Type.String({ format: 'date-time' }),
});

export const DeliveryPage = Type.Object({
  deliveries: Type.Array(Delivery),
  nextCursor: Type.Union([Type.String(), Type.Null()]),
});

export const ProjectIdParams = Type.Object({ projectId: Type.String({ maxLength: 64 }) });
export const DestinationIdParams = Type.Object({ destinationId: Type.String({ maxLength: 64 }) });
export const DeliveryParams = Type.Object({
  destinationId: Type.String({ maxLength: 64 }),
  deliveryId: Type.String({ maxLength: 64 }),
});
export const DeliveriesQuery = Type.Object({ cursor: Type.Optional(Type.String()) });
export const Replayed = Type.Object({ ok: Type.Literal(true) });
