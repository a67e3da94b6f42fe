import webPush from 'web-push';
import type { Sql } from '../../db/client.ts';
import { installationSecret } from '../../db/settings.ts';

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

/**
 * The installation's VAPID key pair, generated the first time it is needed and kept in the
 * database, so every process signs with the same key and browsers' subscriptions stay valid.
 */
export function vapidKeys(sql: Sql): Promise<VapidKeys> {
  return installationSecret(
    sql,
    'vapid_keys',
    () => {
      const { publicKey, privateKey } = webPush.generateVAPIDKeys();
      return JSON.stringify({ publicKey, privateKey });
    },
    (value) => JSON.parse(value) as VapidKeys,
  );
}

/**
 * VAPID's contact for push services: the dashboard's https address when it has one, else a mailto
 * at its host (push services refuse a plain http URL as the subject).
 */
export function vapidSubject(baseUrl: string): string {
  const url = new URL(baseUrl);
  return url.protocol === 'https:' ? url.origin : `mailto:eventlog@${url.hostname}`;
}
