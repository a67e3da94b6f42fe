import { Type } from '@sinclair/typebox';

export const Format = Type.Union([Type.Literal('json'), Type.Literal('text'), Type.Literal('embed')], {
  description: 'json: signed envelope; text: {text} (Slack); embed: {embeds} (Discord)',
});

export const LastStatus = Type.Union([
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
  createdAt: Type.String({ format: 'date-time' }),
});

export const CreateDestinationBody = Type.Object({
  name: Type.String(),
  url: Type.String(),
  format: Format,
  enabled: Type.Optional(Type.Boolean()),
});

export const TestResult = Type.Object({
  ok: Type.Boolean(),
  status: Type.Union([Type.Integer(), Type.Null()]),
  error: Type.Union([Type.String(), Type.Null()]),
});

export const Attempt = Type.Object({
  at: Type.String({ format: 'date-time' }),
  status: Type.Union([Type.Integer(), Type.Null()]),
  durationMs: Type.Union([Type.Integer(), Type.Null()]),
  error: Type.Union([Type.String(), Type.Null()]),
  response: Type.Union([Type.String(), Type.Null()], { description: 'The first 1 KB of the answer' }),
});

export const Delivery = Type.Object({
  id: Type.String(),
  eventId: Type.Integer({ description: '0 for a Test delivery' }),
  webhookId: Type.String({ description: 'The webhook-id header: the same on every attempt and replay' }),
  status: Type.Union([Type.Literal('pending'), Type.Literal('succeeded'), Type.Literal('failed')]),
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
