import type { Static } from '@sinclair/typebox';
import type { VerbArgs } from '../../context.ts';
import { InvalidInput, Forbidden, NotFound } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import { refuseIpLiteral } from '../../lib/outboundHttp/addressGuard.ts';
import { upsertSubscription } from './queries.ts';
import type { SubscribeBody } from './schemas.ts';

const MAX_ENDPOINT_LENGTH = 2048;
const BASE64URL = /^[A-Za-z0-9_-]+={0,2}$/;

/** The endpoint must be an https URL (web push is only spoken over TLS), with the keys of RFC 8291. */
function checkSubscription(input: Static<typeof SubscribeBody>, allowPrivate: boolean): void {
  const { endpoint, keys } = input;
  if (endpoint.length > MAX_ENDPOINT_LENGTH) throw new InvalidInput(`endpoint must be at most ${MAX_ENDPOINT_LENGTH} characters`);
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw new InvalidInput('endpoint is not a valid URL');
  }
  if (url.protocol !== 'https:') throw new InvalidInput('endpoint must be an https URL');
  if (!allowPrivate) {
    const refused = refuseIpLiteral(url);
    if (refused) throw new InvalidInput(refused.message);
  }
  const p256dh = BASE64URL.test(keys.p256dh) ? Buffer.from(keys.p256dh, 'base64url') : null;
  if (!p256dh || p256dh.length !== 65 || p256dh[0] !== 0x04) {
    throw new InvalidInput('keys.p256dh must be an uncompressed P-256 public key, base64url-encoded');
  }
  const auth = BASE64URL.test(keys.auth) ? Buffer.from(keys.auth, 'base64url') : null;
  if (!auth || auth.length !== 16) throw new InvalidInput('keys.auth must be 16 bytes, base64url-encoded');
}

/**
 * Saves the signed-in user's browser subscription for a project. Needs a person: a push
 * subscription is a browser, and an API key has no browser.
 */
export async function subscribePush({ ctx, input }: VerbArgs<Static<typeof SubscribeBody> & { projectId: string }>): Promise<{ id: string }> {
  // Checked here, not by a shared guard, so that TypeScript narrows the actor to a user below.
  if (ctx.actor.kind !== 'user') throw new Forbidden('Push notifications are enabled from a signed-in dashboard, not with an API key');
  checkSubscription(input, ctx.services.config.allowPrivateWebhookUrls);
  const id = await upsertSubscription(ctx.services.sql, ctx.organizationId, {
    id: newId(16),
    projectId: input.projectId,
    userId: ctx.actor.userId,
    endpoint: input.endpoint,
    p256dh: input.keys.p256dh,
    auth: input.keys.auth,
  });
  if (!id) throw new NotFound('Project');
  return { id };
}
