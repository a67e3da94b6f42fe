import { Type } from '@sinclair/typebox';

export const DigestSettings = Type.Object(
  {
    frequency: Type.Union([Type.Literal('daily'), Type.Literal('weekly'), Type.Literal('off')], {
      description: 'daily, or weekly (on Mondays), at hour:00 in timeZone; off: no digest',
    }),
    hour: Type.Integer({ minimum: 0, maximum: 23 }),
    timeZone: Type.String({ maxLength: 100, description: 'An IANA time zone name, e.g. Europe/Paris' }),
  },
  { additionalProperties: false },
);

export const Ok = Type.Object({ ok: Type.Literal(true) });
