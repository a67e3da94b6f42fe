import crypto from 'node:crypto';

const ALPHANUMERIC = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** `length` characters of [a-z0-9] from the CSPRNG, without modulo bias. */
export function randomAlphanumeric(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of crypto.randomBytes(length * 2)) {
      // 252 = 7 * 36: bytes above it would favour the first characters.
      if (byte < 252) out += ALPHANUMERIC[byte % 36];
      if (out.length === length) break;
    }
  }
  return out;
}

/** Project ids are exactly 12 characters of [a-z0-9] (spec); other records use the same form. */
export const newId = (length = 12) => randomAlphanumeric(length);

export function sha256(value: string): Buffer {
  return crypto.createHash('sha256').update(value).digest();
}
