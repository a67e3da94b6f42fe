import { Type } from '@sinclair/typebox';

export const ChartsQuery = Type.Object({
  project: Type.Optional(Type.String()),
  days: Type.Optional(Type.String({ description: 'Integer 1-36500; default 30' })),
  category: Type.Optional(Type.String()),
});

const DayCount = Type.Object({
  day: Type.String({ description: 'YYYY-MM-DD in the server time zone' }),
  count: Type.Integer(),
});

/** Keyed by category name; only days with events, oldest first. */
export const Charts = Type.Record(Type.String(), Type.Array(DayCount));
