import assert from 'node:assert/strict';
import { after, afterEach, describe, it } from 'node:test';
import postgres from 'postgres';
import { ranInFirstPass } from '../onePass.ts';
import { ServerProcess, cleanUp, embeddedEnv, externalEnv, jsonLine, postmasterPid, readClusterFile, runCli, stopServers, tempDataDir } from './processes.ts';
import { sleep, waitUntil } from '../wait.ts';

after(cleanUp);
afterEach(stopServers);

interface Ingest {
  acknowledged: number[];
  projectId: string;
  stop(): Promise<void>;
}

/** Eight clients writing events as fast as the server takes them; the ids of every 201 are kept. */
async function ingest(server: ServerProcess, env: NodeJS.ProcessEnv): Promise<Ingest> {
  const org = jsonLine(await runCli(['org', 'create', 'Crash'], env));
  const key = String(jsonLine(await runCli(['key', 'create', String(org.id)], env)).key);
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const project = await fetch(`${server.url}/api/projects`, { method: 'POST', headers, body: JSON.stringify({ name: 'P' }) });
  const projectId = String(((await project.json()) as { id: string }).id);
  const acknowledged: number[] = [];
  let running = true;
  const writers = Array.from({ length: 8 }, async (_, n) => {
    for (let i = 0; running; i++) {
      try {
        const reply = await fetch(`${server.url}/api/events`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ project: projectId, category: 'crash', title: `w${n}-${i}` }),
        });
        if (reply.status === 201) acknowledged.push(Number(((await reply.json()) as { id: number }).id));
      } catch {
        // The server is gone: what it acknowledged before is what counts. Time itself: the pace of retries.
        await sleep(50);
      }
    }
  });
  return {
    acknowledged,
    projectId,
    stop: async () => {
      running = false;
      await Promise.all(writers);
    },
  };
}

async function missing(url: string | postgres.Options<Record<string, never>>, projectId: string, ids: number[]): Promise<number> {
  const sql = typeof url === 'string' ? postgres(url, { max: 1, onnotice: () => {} }) : postgres(url);
  try {
    const [row] = await sql`SELECT count(*)::int AS n FROM events WHERE project_id = ${projectId} AND id = ANY(${ids}::bigint[])`;
    return new Set(ids).size - (row!.n as number);
  } finally {
    await sql.end();
  }
}

describe('kill -9 during a concurrent ingest', () => {
  it('embedded: the server and its PostgreSQL killed together; after a restart every acknowledged event is there', { skip: ranInFirstPass }, async () => {
    const dataDir = tempDataDir('crash');
    const env = embeddedEnv(dataDir);
    const server = await ServerProcess.start(env);
    await server.healthy(60_000);
    const load = await ingest(server, env);
    await waitUntil(() => load.acknowledged.length > 200, { timeoutMs: 30_000, message: 'acknowledged events' });
    const postmaster = postmasterPid(dataDir) as number;
    process.kill(server.pid, 'SIGKILL');
    process.kill(postmaster, 'SIGKILL');
    await server.exited;
    await load.stop();

    const next = await ServerProcess.start(env);
    await next.healthy(60_000);
    const file = readClusterFile(dataDir);
    const lost = await missing(
      { host: '127.0.0.1', port: file.port, user: 'eventlog', password: file.password, database: 'eventlog', max: 1, onnotice: () => {} },
      load.projectId,
      load.acknowledged,
    );
    assert.equal(lost, 0, `${lost} of ${load.acknowledged.length} acknowledged events are missing`);
    assert.deepEqual(await next.stop('SIGTERM'), { code: 0, signal: null });
  });

  it('DATABASE_URL: the server killed; after a restart every acknowledged event is there', async () => {
    const databaseUrl = process.env.DATABASE_URL;
    assert.ok(databaseUrl, 'the test runner provides DATABASE_URL');
    const env = externalEnv(databaseUrl, tempDataDir('crash-external'));
    const server = await ServerProcess.start(env);
    await server.healthy(60_000);
    const load = await ingest(server, env);
    await waitUntil(() => load.acknowledged.length > 200, { timeoutMs: 30_000, message: 'acknowledged events' });
    process.kill(server.pid, 'SIGKILL');
    await server.exited;
    await load.stop();

    const next = await ServerProcess.start(env);
    await next.healthy(60_000);
    const lost = await missing(databaseUrl, load.projectId, load.acknowledged);
    assert.equal(lost, 0, `${lost} of ${load.acknowledged.length} acknowledged events are missing`);
    assert.deepEqual(await next.stop('SIGTERM'), { code: 0, signal: null });
  });
});
