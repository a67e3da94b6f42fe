import crypto from 'node:crypto';
import type { Sql } from '../../db/client.ts';
import { insertSettingIfAbsent, readSetting } from './queries.ts';

const SETTING = 'hook_token_key';
const cache = new WeakMap<Sql, Promise<Buffer>>();

/**
 * The key that seals hook tokens for display, made once per installation. Two processes starting
 * together may both generate one; the insert keeps the first and both read that one back.
 */
export function hookTokenKey(sql: Sql): Promise<Buffer> {
  let key = cache.get(sql);
  if (!key) {
    key = (async () => {
      await insertSettingIfAbsent(sql, SETTING, crypto.randomBytes(32).toString('base64'));
      const value = await readSetting(sql, SETTING);
      if (!value) throw new Error(`setting ${SETTING} is missing after it was written`);
      return Buffer.from(value, 'base64');
    })();
    cache.set(sql, key);
    key.catch(() => cache.delete(sql));
  }
  return key;
}
