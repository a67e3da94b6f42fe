import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { withTransaction } from '../../src/db/client.ts';
import { writeEventsInTransaction } from '../../src/features/events/writeEventsInTransaction.ts';
import type { Browser } from '../dashboard/signedIn.ts';
import type { Reply, TestApp, TestOrg } from '../helpers.ts';

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

/** An event written by an alert of the project (disabled, so only this event is its), as the engine writes it. */
export async function alertEvent(t: TestApp, org: TestOrg, project: string, critical: boolean, title = 'Alert firing: errors'): Promise<void> {
  const alert = await org.post(`/api/projects/${project}/alerts`, {
    name: 'errors',
    condition: { count: 'atLeast', threshold: 1_000_000, windowSeconds: 60 },
    critical,
    enabled: false,
  });
  assert.equal(alert.status, 201, JSON.stringify(alert.body));
  await withTransaction(t.services.sql, (tx) =>
    writeEventsInTransaction(
      tx,
      org.id,
      [
        {
          projectId: project,
          category: 'alerts',
          title,
          description: null,
          icon: null,
          tags: null,
          metadata: null,
          url: null,
          userId: null,
          notify: true,
          createdAtMicros: null,
          alertId: (alert.body as { id: string }).id,
        },
      ],
      { timeZone: 'UTC' },
    ),
  );
}
