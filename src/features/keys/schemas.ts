import { Type } from '@sinclair/typebox';

export const KeySummary = Type.Object({
  id: Type.String(),
  prefix: Type.String({ description: 'The first 12 characters of the key, for recognising it' }),
  createdAt: Type.String({ format: 'date-time' }),
  lastUsedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  revokedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});

export const CreatedKey = Type.Object({
  id: Type.String(),
  key: Type.String({ description: 'The plaintext key: shown this once, never again' }),
  prefix: Type.String(),
});

export const KeyIdParams = Type.Object({ keyId: Type.String({ maxLength: 64 }) });

export const RevokedKey = Type.Object({ id: Type.String(), revokedAt: Type.String({ format: 'date-time' }) });
