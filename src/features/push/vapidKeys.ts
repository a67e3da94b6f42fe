import webPush from 'web-push';
import type { Sql } from '../../db/client.ts';
import { insertSettingIfAbsent, readSetting } from './queries.ts';

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

const SETTING = 'vapid_keys';
const cache = new WeakMap<Sql, Promise<VapidKeys>>();

/**
 * The installation's VAPID key pair, generated the first time it is needed and kept in the
 * database, so every process signs with the same key and browsers' subscriptions stay valid.
 * Concurrent first calls may each generate a pair; the insert keeps one and all read that back.
 */
export function vapidKeys(sql: Sql): Promise<VapidKeys> {
  let keys = cache.get(sql);
  if (!keys) {
    keys = (async () => {
      const generated = webPush.generateVAPIDKeys();
      await insertSettingIfAbsent(sql, SETTING, JSON.stringify({ publicKey: generated.publicKey, privateKey: generated.privateKey }));
      const value = await readSetting(sql, SETTING);
      if (!value) throw new Error(`setting ${SETTING} is missing after it was written`);
      return JSON.parse(value) as VapidKeys;
    })();
    cache.set(sql, keys);
    keys.catch(() => cache.delete(sql));
  }
  return keys;
}

/**
 * VAPID's contact for push services: the dashboard's https address when it has one, else a mailto
 * at its host (push services refuse a plain http URL as the subject).
 */
export function vapidSubject(baseUrl: string): string {
  const url = new URL(baseUrl);
  return url.protocol === 'https:' ? url.origin : `mailto:eventlog@${url.hostname}`;
}
