import { Type } from '@sinclair/typebox';

export const VapidPublicKey = Type.Object({
  publicKey: Type.String({ description: 'applicationServerKey for PushManager.subscribe, base64url' }),
});

/** PushSubscription.toJSON() as a browser gives it. */
export const SubscribeBody = Type.Object({
  endpoint: Type.String(),
  keys: Type.Object({ p256dh: Type.String(), auth: Type.String() }),
});

export const UnsubscribeBody = Type.Object({ endpoint: Type.String() });
export const Subscribed = Type.Object({ id: Type.String() });
export const Unsubscribed = Type.Object({ ok: Type.Literal(true) });
export const ProjectIdParams = Type.Object({ projectId: Type.String({ maxLength: 64 }) });
