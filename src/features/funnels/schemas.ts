import { Type } from '@sinclair/typebox';

/** Every field is checked by `queryFunnel` itself, so that each bad body gets the same clear 400. */
export const FunnelBody = Type.Object({
  project: Type.Optional(Type.Unknown({ description: 'Project id' })),
  steps: Type.Optional(Type.Unknown({ description: '2-10 step filters, each `{category?, tags?}`' })),
  windowSeconds: Type.Optional(Type.Unknown({ description: 'Integer 60-31536000; default 604800 (7 days)' })),
  since: Type.Optional(Type.Unknown({ description: 'Unix seconds; default: until minus 30 days' })),
  until: Type.Optional(Type.Unknown({ description: 'Unix seconds, exclusive; default: now' })),
});

export const FunnelResult = Type.Object({
  steps: Type.Array(Type.Object({ users: Type.Integer({ description: 'Users that reached this step' }) })),
});
