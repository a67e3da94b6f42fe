import crypto from 'node:crypto';
import postgres from 'postgres';

/** An empty database of a test file's own, on the server the test runner provides. */
export interface OwnDatabase {
  url: string;
  /** Drops it, closing whatever connections are still open on it. */
  drop(): Promise<void>;
}

/**
 * Creates a database beside the one in `serverUrl` (the embedded cluster's or an external
 * DATABASE_URL), named after it so a leftover is easy to spot. The caller runs the migrations.
 * A file that runs the delivery worker needs one: the worker takes every organization's work.
 */
export async function createOwnDatabase(serverUrl: string): Promise<OwnDatabase> {
  const url = new URL(serverUrl);
  const base = decodeURIComponent(url.pathname.slice(1)).toLowerCase().replace(/[^a-z0-9_]/g, '_') || 'eventlog';
  const name = `${base.slice(0, 40)}_file_${crypto.randomBytes(6).toString('hex')}`;
  await onServer(serverUrl, (admin) => admin.unsafe(`CREATE DATABASE "${name}"`));
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => onServer(serverUrl, (admin) => admin.unsafe(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)),
  };
}

async function onServer(serverUrl: string, run: (admin: postgres.Sql) => Promise<unknown>): Promise<void> {
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  try {
    await run(admin);
  } finally {
    await admin.end({ timeout: 5 });
  }
}
