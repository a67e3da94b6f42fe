import crypto from 'node:crypto';
import type { Sql } from '../../db/client.ts';
import { installationSecret } from '../../db/settings.ts';

/** The key that seals hook tokens for display, made once per installation. */
export function hookTokenKey(sql: Sql): Promise<Buffer> {
  return installationSecret(
    sql,
    'hook_token_key',
    () => crypto.randomBytes(32).toString('base64'),
    (value) => Buffer.from(value, 'base64'),
  );
}
