import { Type } from '@sinclair/typebox';
import { CreateAlertBody } from '../alerts/schemas.ts';
import { TransferGroup } from '../groups/schemas.ts';

const OptionalText = Type.Optional(Type.Union([Type.String(), Type.Null()]));

/** One event of the export document; validated further by the rules of POST /api/events. */
export const TransferEvent = Type.Object({
  category: Type.String(),
  title: Type.String(),
  description: OptionalText,
  icon: OptionalText,
  tags: Type.Optional(Type.Union([Type.Object({}, { additionalProperties: true }), Type.Null()])),
  metadata: Type.Optional(Type.Union([Type.Object({}, { additionalProperties: true }), Type.Array(Type.Unknown()), Type.Null()])),
  url: OptionalText,
  user_id: OptionalText,
  notify: Type.Optional(Type.Boolean()),
  favorited: Type.Optional(Type.Boolean()),
  created_at: Type.Optional(Type.Union([Type.Number(), Type.Null()], { description: 'Unix seconds; export writes whole seconds' })),
});

const TransferInsight = Type.Object({
  title: Type.String(),
  value: Type.Union([Type.String(), Type.Number()]),
  icon: OptionalText,
});

export const TransferProject = Type.Object({
  id: Type.Optional(Type.Union([Type.String(), Type.Null()], { description: 'A label only; import generates fresh ids' })),
  name: Type.String(),
  categories: Type.Optional(Type.Array(Type.String())),
  events: Type.Optional(Type.Array(TransferEvent)),
  insights: Type.Optional(Type.Array(TransferInsight)),
  alerts: Type.Optional(Type.Array(CreateAlertBody, { description: 'Alert definitions (extensions.md "Alerts"); import creates them anew' })),
  groups: Type.Optional(
    Type.Array(TransferGroup, { description: 'Groups and their users (extensions.md "Groups (accounts)"); absent in documents of earlier releases' }),
  ),
});

/** What POST /api/import takes: the export document. `version` may be left out; if given it is 1. */
export const ImportDocument = Type.Object({
  // `const` alone (Literal would add `type: number`), so "1" and 2 both read "version must be 1".
  version: Type.Optional(Type.Unsafe<1>({ const: 1, description: 'Optional; when given it must be 1' })),
  projects: Type.Array(TransferProject),
});

/** What GET /api/export writes (streamed, so this schema documents it rather than serializes it). */
export const ExportDocument = Type.Object({
  version: Type.Literal(1),
  projects: Type.Array(
    Type.Object({
      id: Type.String(),
      name: Type.String(),
      categories: Type.Array(Type.String()),
      events: Type.Array(Type.Required(TransferEvent)),
      insights: Type.Array(Type.Required(TransferInsight)),
      alerts: Type.Array(CreateAlertBody),
      groups: Type.Array(TransferGroup),
    }),
  ),
});

export const ImportResult = Type.Object({
  imported: Type.Object({ projects: Type.Integer(), events: Type.Integer(), insights: Type.Integer() }),
  idMap: Type.Record(Type.String(), Type.String(), { description: 'Project id (or index, when the file has none) in the file -> new project id' }),
});
