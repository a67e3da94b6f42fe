import { Type } from '@sinclair/typebox';

/** LogSnag's `POST /v1/log` body; fields it has and Eventlog does not are accepted and ignored. */
export const LogBody = Type.Object({
  project: Type.String({ description: 'A project id or the exact name of one project' }),
  channel: Type.String({ description: 'Stored as the category' }),
  event: Type.String({ description: 'Stored as the title' }),
  description: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  icon: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  notify: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
  tags: Type.Optional(Type.Union([Type.Object({}, { additionalProperties: true }), Type.Null()])),
  user_id: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  timestamp: Type.Optional(Type.Union([Type.Number({ description: 'Unix seconds; stored as created_at' }), Type.Null()])),
  parser: Type.Optional(
    Type.Union([Type.Literal('markdown'), Type.Literal('text'), Type.Null()], {
      description: '"text" escapes the description\'s Markdown so it shows literally',
    }),
  ),
});

export const LogInsightBody = Type.Object({
  project: Type.String({ description: 'A project id or the exact name of one project' }),
  title: Type.String(),
  value: Type.Union([Type.String(), Type.Number()]),
  icon: Type.Optional(Type.Union([Type.String(), Type.Null()])),
});

export const LogInsightIncrementBody = Type.Object({
  project: Type.String({ description: 'A project id or the exact name of one project' }),
  title: Type.String(),
  value: Type.Object({ $inc: Type.Number() }, { additionalProperties: false }),
  icon: Type.Optional(Type.Union([Type.String(), Type.Null()])),
});
