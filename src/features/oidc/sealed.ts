import crypto from 'node:crypto';
import type { Sql } from '../../db/client.ts';
import { installationSecret } from '../../db/settings.ts';

const cookieKey = (sql: Sql) =>
  installationSecret(
    sql,
    'oidc_cookie_key',
    () => crypto.randomBytes(32).toString('base64'),
    (value) => Buffer.from(value, 'base64'),
  );

/**
 * A value sealed with AES-256-GCM under an installation secret (decision 122): the browser can
 * neither read nor change it, any server process can open it. `purpose` is sealed with it, so a
 * value sealed for one cookie is refused by another.
 */
export async function sealValue(sql: Sql, purpose: string, value: object, lifetimeSeconds: number, now = Date.now()): Promise<string> {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv('aes-256-gcm', await cookieKey(sql), iv);
  const plain = JSON.stringify({ ...value, purpose, expires: now + lifetimeSeconds * 1000 });
  const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return [iv, cipher.getAuthTag(), sealed].map((part) => part.toString('base64url')).join('.');
}

/** The sealed value, or null when it is missing, altered, expired, for another purpose or not ours. */
export async function openValue(sql: Sql, purpose: string, sealedValue: string | undefined, now = Date.now()): Promise<Record<string, unknown> | null> {
  const parts = sealedValue?.split('.') ?? [];
  if (parts.length !== 3) return null;
  try {
    const [iv, tag, sealed] = parts.map((part) => Buffer.from(part, 'base64url')) as [Buffer, Buffer, Buffer];
    const decipher = crypto.createDecipheriv('aes-256-gcm', await cookieKey(sql), iv);
    decipher.setAuthTag(tag);
    const parsed = JSON.parse(Buffer.concat([decipher.update(sealed), decipher.final()]).toString('utf8')) as Record<string, unknown>;
    // Attempts sealed before purposes existed carry none; they count as attempts for their ten minutes.
    if ((parsed.purpose ?? 'attempt') !== purpose || !(typeof parsed.expires === 'number' && parsed.expires > now)) return null;
    return parsed;
  } catch {
    return null;
  }
}
