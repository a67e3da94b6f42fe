import { InvalidInput } from '../lib/errors.ts';

const INT32_MAX = 2_147_483_647;

/** Event and insight ids: a positive 32-bit signed integer written in plain digits, else 400. */
export function parsePositiveInt32(raw: string, what: string): number {
  if (!/^[0-9]{1,10}$/.test(raw)) throw new InvalidInput(`${what} must be a positive 32-bit integer`);
  const value = Number(raw);
  if (value < 1 || value > INT32_MAX) throw new InvalidInput(`${what} must be a positive 32-bit integer`);
  return value;
}
