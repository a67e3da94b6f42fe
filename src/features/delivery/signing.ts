import crypto from 'node:crypto';
import { randomAlphanumeric } from '../../lib/ids.ts';

const SECRET_PREFIX = 'whsec_';
/** Standard Webhooks asks for 24 to 64 random bytes; 32 match the HMAC-SHA256 block. */
const SECRET_BYTES = 32;

export function newSigningSecret(): string {
  return `${SECRET_PREFIX}${crypto.randomBytes(SECRET_BYTES).toString('base64')}`;
}

/** `msg_` + alphanumerics: never a `.`, which would make the signed string ambiguous. */
export function newWebhookId(): string {
  return `msg_${randomAlphanumeric(24)}`;
}

/**
 * Standard Webhooks: HMAC-SHA256 over `id.timestamp.body`, keyed by the decoded bytes of the
 * secret after `whsec_`, sent base64-encoded as `v1,<signature>`.
 */
export function signatureHeaders(secret: string, webhookId: string, timestampSeconds: number, body: string): Record<string, string> {
  const key = Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
  const signature = crypto.createHmac('sha256', key).update(`${webhookId}.${timestampSeconds}.${body}`).digest('base64');
  return {
    'webhook-id': webhookId,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': `v1,${signature}`,
  };
}
