import { Type } from '@sinclair/typebox';

/** Types only; the rules a schema cannot state are checked by `validateInsightInput`. */
export const UpsertInsightBody = Type.Object({
  project: Type.String(),
  title: Type.String(),
  value: Type.Union([Type.String(), Type.Number()], { description: 'Stored as text; 0 and "" are valid' }),
  icon: Type.Optional(Type.Union([Type.String(), Type.Null()], { description: 'Omitted: an update keeps the icon; null clears it' })),
});

export const UpsertedInsight = Type.Object({ ok: Type.Literal(true) });

export const InsightIdParams = Type.Object({ insightId: Type.String() });

export const ListInsightsQuery = Type.Object({ project: Type.Optional(Type.String()) });

export const Insight = Type.Object({
  id: Type.Integer(),
  projectId: Type.String(),
  title: Type.String(),
  value: Type.String(),
  icon: Type.Union([Type.String(), Type.Null()]),
  updatedAt: Type.String({ format: 'date-time' }),
});

export const IncrementInsightBody = Type.Object({
  project: Type.String(),
  title: Type.String(),
  value: Type.Object({ $inc: Type.Number({ description: 'Finite; negative allowed' }) }, { additionalProperties: false }),
  icon: Type.Optional(Type.Union([Type.String(), Type.Null()], { description: 'As in POST /api/insight' })),
});

export const IncrementedInsight = Type.Object({
  ok: Type.Literal(true),
  value: Type.Optional(Type.String({ description: 'The new value, as text; left out for a browser key, which may add but not read' })),
});
