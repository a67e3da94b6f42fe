import { Type } from '@sinclair/typebox';

const KeyName = Type.Union([Type.String(), Type.Null()], { description: 'What the key is for, as its owner named it; null when unnamed' });

const KeyProjects = Type.Union([Type.Array(Type.String()), Type.Null()], {
  description: 'null: every project of the organization; otherwise the only projects the key sees and writes',
});
const KeyAccess = Type.Union([Type.Literal('full'), Type.Literal('ingest'), Type.Literal('read')], {
  description: 'full: everything; ingest: create events, identify users and set insights only; read: GET routes only',
});
const KeyOrigins = Type.Union([Type.Array(Type.String()), Type.Null()], {
  description: 'Browser origins allowed to use an ingest key from a web page (CORS); null for keys kept on servers',
});

export const KeySummary = Type.Object({
  id: Type.String(),
  name: KeyName,
  prefix: Type.String({ description: 'The first 12 characters of the key, for recognising it' }),
  projects: KeyProjects,
  access: KeyAccess,
  origins: KeyOrigins,
  createdAt: Type.String({ format: 'date-time' }),
  lastUsedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  revokedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});

export const CreateKeyBody = Type.Object(
  {
    // Checked by the verb (trimmed, 1 to 100 characters), so the error names the rule.
    name: Type.Optional(Type.Union([Type.String({ maxLength: 10000 }), Type.Null()])),
    // Checked by the verb (non-empty, the organization's projects; origins' shape), so the error names the rule.
    projects: Type.Optional(Type.Union([Type.Array(Type.String({ maxLength: 64 }), { maxItems: 1000 }), Type.Null()])),
    access: Type.Optional(KeyAccess),
    origins: Type.Optional(Type.Union([Type.Array(Type.String({ maxLength: 300 }), { maxItems: 1000 }), Type.Null()])),
  },
  { additionalProperties: false },
);

export const CreatedKey = Type.Object({
  id: Type.String(),
  name: KeyName,
  key: Type.String({ description: 'The plaintext key: shown this once, never again' }),
  prefix: Type.String(),
  projects: KeyProjects,
  access: KeyAccess,
  origins: KeyOrigins,
});

export const KeyIdParams = Type.Object({ keyId: Type.String({ maxLength: 64 }) });

export const RevokedKey = Type.Object({ id: Type.String(), revokedAt: Type.String({ format: 'date-time' }) });
