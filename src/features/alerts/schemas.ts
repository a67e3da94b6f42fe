import { Type } from '@sinclair/typebox';

// The "Alerts" section of extensions.md: every field, range and reply shape.

const TagValue = Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()], {
  description: "Matched as the feed's tag parameter matches key:value (numbers as String(n), true, false, null)",
});

export const AlertFilter = Type.Object(
  {
    category: Type.Optional(Type.String()),
    tags: Type.Optional(Type.Record(Type.String(), TagValue)),
    user_id: Type.Optional(Type.String()),
    search: Type.Optional(Type.String()),
  },
  { additionalProperties: false, description: "Which events count (category, tags, user_id, search as the feed's parameters); {} or absent: every event" },
);

const AlertCondition = Type.Object(
  {
    count: Type.Union([Type.Literal('atLeast'), Type.Literal('fewerThan')]),
    threshold: Type.Integer({ minimum: 1, maximum: 1_000_000 }),
    windowSeconds: Type.Integer({ minimum: 10, maximum: 31_536_000 }),
  },
  { additionalProperties: false, description: 'Fires while the count of matching events in the last windowSeconds is atLeast/fewerThan threshold' },
);

const RenotifySeconds = Type.Union([Type.Integer({ minimum: 60, maximum: 604_800 }), Type.Null()], {
  description: 'While firing, another firing event every this many seconds; null: never',
});

export const Alert = Type.Object({
  id: Type.String(),
  projectId: Type.String(),
  name: Type.String(),
  filter: AlertFilter,
  condition: AlertCondition,
  category: Type.String({ description: 'The category of the events the alert creates' }),
  renotifySeconds: RenotifySeconds,
  enabled: Type.Boolean(),
  critical: Type.Boolean({ description: 'Its events reach members during their quiet hours and snoozes (a project set to "none" still stops them)' }),
  mutedUntil: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  state: Type.Union([Type.Literal('ok'), Type.Literal('firing')]),
  stateSince: Type.String({ format: 'date-time' }),
  count: Type.Union([Type.Integer(), Type.Null()], { description: 'Matching events the last evaluation saw; null before the first' }),
  createdAt: Type.String({ format: 'date-time' }),
});

const createFields = {
  name: Type.String({ description: '1-100 characters after trimming' }),
  filter: Type.Optional(AlertFilter),
  condition: AlertCondition,
  category: Type.Optional(Type.String({ description: 'At most 100 characters; default "alerts"' })),
  renotifySeconds: Type.Optional(RenotifySeconds),
  enabled: Type.Optional(Type.Boolean()),
  critical: Type.Optional(Type.Boolean({ description: 'Default false: its events then wait out quiet hours and snoozes like any' })),
};

export const CreateAlertBody = Type.Object(createFields, { additionalProperties: false });

export const UpdateAlertBody = Type.Object(
  {
    name: Type.Optional(createFields.name),
    filter: Type.Optional(AlertFilter),
    condition: Type.Optional(AlertCondition),
    category: createFields.category,
    renotifySeconds: createFields.renotifySeconds,
    enabled: createFields.enabled,
    critical: createFields.critical,
  },
  { additionalProperties: false },
);

export const MuteBody = Type.Object(
  { until: Type.Union([Type.Number({ description: 'Unix seconds' }), Type.Null()], { description: 'null unmutes' }) },
  { additionalProperties: false },
);

export const ProjectIdParams = Type.Object({ projectId: Type.String({ maxLength: 64 }) });
export const AlertIdParams = Type.Object({ alertId: Type.String({ maxLength: 64 }) });

export const HistoryQuery = Type.Object({
  cursor: Type.Optional(Type.String()),
  limit: Type.Optional(Type.String({ description: 'Integer 1-100; default 50' })),
});

const Transition = Type.Object({
  state: Type.Union([Type.Literal('ok'), Type.Literal('firing')]),
  at: Type.String({ format: 'date-time' }),
  count: Type.Integer(),
});

export const HistoryPage = Type.Object({
  transitions: Type.Array(Transition),
  nextCursor: Type.Union([Type.String(), Type.Null()]),
});

export const FilterPreviewBody = Type.Object(
  { filter: Type.Optional(AlertFilter), windowSeconds: AlertCondition.properties.windowSeconds },
  { additionalProperties: false },
);
export const FilterPreview = Type.Object({ count: Type.Integer({ description: 'Matching events in the last windowSeconds, now' }) });
