import crypto from 'node:crypto';
import type { Browser } from '../dashboard/signedIn.ts';
import type { Reply, TestApp } from '../helpers.ts';

export const put = (t: TestApp, member: Browser, body: unknown): Promise<Reply> =>
  t.request({ method: 'PUT', url: '/api/me/notifications', body, headers: { cookie: member.cookie, 'x-csrf-token': member.csrfToken } });

/** A browser's subscription keys (RFC 8291 shapes): enough for the server to accept it. */
export function browserKeys() {
  const ecdh = crypto.createECDH('prime256v1');
  ecdh.generateKeys();
  return { p256dh: ecdh.getPublicKey().toString('base64url'), auth: crypto.randomBytes(16).toString('base64url') };
}

/** Subscribes the member's browser (an endpoint of a local push service) to a project. */
export async function subscribe(member: Browser, projectId: string, origin: string): Promise<string> {
  const reply = await member.post(`/api/projects/${projectId}/push-subscriptions`, { endpoint: `${origin}/push/${crypto.randomUUID()}`, keys: browserKeys() });
  if (reply.status !== 201) throw new Error(`subscribe: ${reply.status} ${JSON.stringify(reply.body)}`);
  return (reply.body as { id: string }).id;
}
