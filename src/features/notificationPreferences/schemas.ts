import { Type } from '@sinclair/typebox';

const Level = Type.Union([Type.Literal('all'), Type.Literal('alerts'), Type.Literal('none')], {
  description: 'all: every notify event (the default for a project not listed); alerts: only the events written by alerts; none: nothing',
});

const QuietHoursSchema = Type.Object(
  {
    timeZone: Type.String({ maxLength: 100, description: 'An IANA time zone name, e.g. Europe/Paris' }),
    start: Type.String({ maxLength: 5, description: 'HH:MM in timeZone: a window opens on each listed day at this time' }),
    end: Type.String({ maxLength: 5, description: 'HH:MM in timeZone: the window closes at the next such time (the next day when not after start)' }),
    days: Type.Array(Type.Integer(), { maxItems: 7, description: 'ISO weekdays a window opens on: 1 = Monday ... 7 = Sunday' }),
  },
  { additionalProperties: false },
);

const fields = {
  projects: Type.Record(Type.String({ maxLength: 64 }), Level, { maxProperties: 1000, description: 'Project id to level' }),
  email: Type.Boolean({ description: "Also send each notification to the member's own address (needs email configured)" }),
  quietHours: Type.Union([QuietHoursSchema, Type.Null()]),
  snoozedUntil: Type.Union([Type.Integer({ minimum: 0, maximum: 253402300799 }), Type.Null()], {
    description: 'Unix time in seconds: held like quiet hours until then',
  }),
};

export const NotificationPreferences = Type.Object(fields, { additionalProperties: false });

/** PUT replaces the whole object: a field left out takes its default. */
export const NotificationPreferencesBody = Type.Object(
  {
    projects: Type.Optional(fields.projects),
    email: Type.Optional(fields.email),
    quietHours: Type.Optional(fields.quietHours),
    snoozedUntil: Type.Optional(fields.snoozedUntil),
  },
  { additionalProperties: false },
);
