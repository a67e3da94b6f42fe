import type { Db, Sql } from './client.ts';

/**
 * The `settings` table holds installation-wide values, not a tenant's: the secrets every process
 * must share and the zone the chart counts were bucketed in. Every read and write of the table
 * goes through this module.
 */
type SettingKey = 'hook_token_key' | 'vapid_keys' | 'chart_time_zone' | 'oidc_cookie_key' | 'delivery_marker';

export async function readSetting(sql: Db, key: SettingKey): Promise<string | undefined> {
  const [row] = await sql<{ value: string }[]>`SELECT value FROM settings WHERE key = ${key}`;
  return row?.value;
}

export async function writeSetting(sql: Db, key: SettingKey, value: string): Promise<void> {
  await sql`
    INSERT INTO settings (key, value) VALUES (${key}, ${value})
    ON CONFLICT (key) DO UPDATE SET value = excluded.value`;
}

const secrets = new WeakMap<Sql, Map<SettingKey, Promise<unknown>>>();

/**
 * A secret of the installation (a sealing key, a key pair): generated the first time it is needed
 * and kept in `settings`, so every process uses the same one; read once per pool. Two processes
 * starting together may both generate one; the insert keeps the first and both read that back.
 */
export function installationSecret<T>(sql: Sql, key: SettingKey, generate: () => string, parse: (value: string) => T): Promise<T> {
  let byKey = secrets.get(sql);
  if (!byKey) secrets.set(sql, (byKey = new Map<SettingKey, Promise<unknown>>()));
  const known = byKey.get(key) as Promise<T> | undefined;
  if (known) return known;
  const secret = (async () => {
    await sql`INSERT INTO settings (key, value) VALUES (${key}, ${generate()}) ON CONFLICT (key) DO NOTHING`;
    const value = await readSetting(sql, key);
    if (value === undefined) throw new Error(`setting ${key} is missing after it was written`);
    return parse(value);
  })();
  byKey.set(key, secret);
  // A failed read (the database away) is tried again by the next caller.
  secret.catch(() => byKey.delete(key));
  return secret;
}
