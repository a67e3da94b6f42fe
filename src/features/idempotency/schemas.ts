import { Type } from '@sinclair/typebox';

/** The header of an idempotent create (extensions.md, "Idempotent creates"); checked by withIdempotency. */
export const IdempotencyHeaders = Type.Object({
  'idempotency-key': Type.Optional(Type.String({ description: '1-255 printable ASCII characters; a repeat within 24 hours replays the first reply' })),
});
