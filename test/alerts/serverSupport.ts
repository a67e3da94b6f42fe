import type { Sql } from '../../src/db/client.ts';
import { ServerProcess, externalEnv, tempDataDir } from '../storage/processes.ts';
import type { TestOrg } from '../helpers.ts';

// Server processes for the alert tests: real `eventlog serve` children on the test file's own
// database, evaluating every half second besides the bus's announcements.

const INTERVAL = { ALERT_EVALUATION_INTERVAL_SECONDS: '0.5' };

export async function servers(databaseUrl: string, count: number): Promise<ServerProcess[]> {
  const dataDir = tempDataDir('alerts');
  const started = await Promise.all(Array.from({ length: count }, () => ServerProcess.start(externalEnv(databaseUrl, dataDir, INTERVAL))));
  await Promise.all(started.map((server) => server.healthy(60_000)));
  return started;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- replies are read as JSON
type Reply = { status: number; body: any };

export async function call(server: ServerProcess, org: TestOrg, method: string, path: string, body?: unknown): Promise<Reply> {
  const reply = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${org.key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: reply.status, body: await reply.json() };
}

export async function alertEventStates(sql: Sql, org: TestOrg, alertId: string): Promise<string[]> {
  const rows = await sql<{ state: string }[]>`
    SELECT tags->>'state' AS state FROM events WHERE organization_id = ${org.id} AND alert_id = ${alertId} ORDER BY id`;
  return rows.map((row) => row.state);
}

export async function transitions(sql: Sql, org: TestOrg, alertId: string): Promise<string[]> {
  const rows = await sql<{ state: string }[]>`
    SELECT state FROM alert_transitions WHERE organization_id = ${org.id} AND alert_id = ${alertId} ORDER BY seq`;
  return rows.map((row) => row.state);
}
