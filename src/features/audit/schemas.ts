import { Type } from '@sinclair/typebox';

export const AuditQuery = Type.Object({
  cursor: Type.Optional(Type.String({ maxLength: 200, description: 'nextCursor of the previous page' })),
  limit: Type.Optional(Type.String({ description: 'Integer 1-100; default 50' })),
  action: Type.Optional(Type.String({ maxLength: 100, description: 'Only entries of this action, e.g. member.remove' })),
  actor: Type.Optional(Type.String({ maxLength: 100, description: "Only entries of this actor's id (a member's or a key's)" })),
});

const Nullable = <T extends ReturnType<typeof Type.String>>(schema: T) => Type.Union([schema, Type.Null()]);

const AuditEntry = Type.Object({
  id: Type.String(),
  at: Type.String({ format: 'date-time' }),
  actor: Type.Union([
    Type.Object({
      kind: Type.Union([Type.Literal('user'), Type.Literal('key'), Type.Literal('operator')]),
      id: Nullable(Type.String()),
      label: Nullable(Type.String({ description: "The member's email, the key's name or prefix; null for the command line" })),
    }),
    Type.Null(),
  ]),
  action: Type.String(),
  target: Type.Union([Type.Object({ type: Type.String(), id: Type.String() }), Type.Null()]),
  ip: Nullable(Type.String()),
});

export const AuditPage = Type.Object({ entries: Type.Array(AuditEntry), nextCursor: Nullable(Type.String()) });
