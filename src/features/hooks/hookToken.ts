import crypto from 'node:crypto';
import { randomAlphanumeric, sha256 } from '../../lib/ids.ts';

/** `whk_` + 32 characters of [a-z0-9] from the CSPRNG: about 165 bits. */
export const HOOK_TOKEN_PATTERN = /^whk_[a-z0-9]{32}$/;

export function generateHookToken(): string {
  return `whk_${randomAlphanumeric(32)}`;
}

/** The lookup key: an index over hashes cannot reveal, by timing, how close a guess came. */
export function hashHookToken(token: string): Buffer {
  return sha256(token);
}

const SEAL_VERSION = 'v1';

/**
 * AES-256-GCM under the installation's hook-token key, bound to the hook id (additional data) so
 * a sealed token copied onto another row does not open. Only for showing the URL again.
 */
export function sealHookToken(key: Buffer, hookId: string, token: string): string {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(hookId));
  const sealed = Buffer.concat([cipher.update(token, 'utf8'), cipher.final()]);
  return `${SEAL_VERSION}.${Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url')}`;
}

export function openHookToken(key: Buffer, hookId: string, sealed: string): string {
  const [version, data] = sealed.split('.');
  if (version !== SEAL_VERSION || !data) throw new Error('unknown sealed hook token format');
  const bytes = Buffer.from(data, 'base64url');
  const decipher = crypto.createDecipheriv('aes-256-gcm', key, bytes.subarray(0, 12));
  decipher.setAAD(Buffer.from(hookId));
  decipher.setAuthTag(bytes.subarray(12, 28));
  return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8');
}
