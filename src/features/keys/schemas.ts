import { Type } from '@sinclair/typebox';

const KeyName = Type.Union([Type.String(), Type.Null()], { description: 'What the key is for, as its owner named it; null when unnamed' });

export const KeySummary = Type.Object({
  id: Type.String(),
  name: KeyName,
  prefix: Type.String({ description: 'The first 12 characters of the key, for recognising it' }),
  createdAt: Type.String({ format: 'date-time' }),
  lastUsedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  revokedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});

export const CreateKeyBody = Type.Object(
  {
    // Checked by the verb (trimmed, 1 to 100 characters), so the error names the rule.
    name: Type.Optional(Type.Union([Type.String({ maxLength: 10000 }), Type.Null()])),
  },
  { additionalProperties: false },
);

export const CreatedKey = Type.Object({
  id: Type.String(),
  name: KeyName,
  key: Type.String({ description: 'The plaintext key: shown this once, never again' }),
  prefix: Type.String(),
});

export const KeyIdParams = Type.Object({ keyId: Type.String({ maxLength: 64 }) });

export const RevokedKey = Type.Object({ id: Type.String(), revokedAt: Type.String({ format: 'date-time' }) });
