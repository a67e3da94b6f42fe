import assert from 'node:assert/strict';
import { type CliResult, type ServerProcess, jsonLine, runCli } from '../storage/processes.ts';

export const KEY_FORMAT = /^ev_[a-z0-9]{8}-[a-z0-9]{4}-[a-z0-9]{4}-[a-z0-9]{4}-[a-z0-9]{12}$/;

/** A failure prints its message on stderr, nothing on stdout, and exits with `code`. */
export function assertFailed(result: CliResult, code: number | 'non-zero', message: RegExp): void {
  if (code === 'non-zero') assert.notEqual(result.code, 0, `expected a failure, got ${JSON.stringify(result)}`);
  else assert.equal(result.code, code, JSON.stringify(result));
  assert.equal(result.stdout, '', 'a failure prints nothing on stdout');
  assert.match(result.stderr, message);
}

/** GET /api/projects with the key: the simplest authenticated call. */
export async function statusWithKey(server: ServerProcess, key: string): Promise<number> {
  const reply = await fetch(`${server.url}/api/projects`, { headers: { authorization: `Bearer ${key}` } });
  await reply.arrayBuffer();
  return reply.status;
}

/** What an operator runs to bootstrap an organization. */
export async function bootstrap(env: NodeJS.ProcessEnv): Promise<{ orgId: string; keyId: string; key: string }> {
  const org = jsonLine(await runCli(['org', 'create', 'Acme'], env));
  const created = jsonLine(await runCli(['key', 'create', String(org.id)], env));
  return { orgId: String(org.id), keyId: String(created.id), key: String(created.key) };
}
