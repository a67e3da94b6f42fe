import { Type } from '@sinclair/typebox';

export const ChartsQuery = Type.Object({
  project: Type.Optional(Type.String()),
  days: Type.Optional(Type.String({ description: 'Integer 1-36500; default 30' })),
  category: Type.Optional(Type.String()),
  tag: Type.Optional(Type.Union([Type.String(), Type.Array(Type.String())], { description: 'key:value, as in the feed; repeatable; every tag must match' })),
  group: Type.Optional(Type.String({ description: "A group's id: count only the events of its users (an unknown group is 404)" })),
  groupBy: Type.Optional(Type.String({ description: '`tag:<key>`: keyed by that tag\'s values as text, "(none)" for events without it' })),
});

const DayCount = Type.Object({
  day: Type.String({ description: 'YYYY-MM-DD in the server time zone' }),
  count: Type.Integer(),
});

/** Keyed by category name (or by tag value with `groupBy`); only days with events, oldest first. */
export const Charts = Type.Record(Type.String(), Type.Array(DayCount));
