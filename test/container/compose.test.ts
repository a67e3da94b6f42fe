// compose.yaml and compose.postgres.yaml, run with podman-compose under a project name of their
// own, on a free port of 127.0.0.1, with the image the runner built (no build here).
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { IMAGE, NO_IMAGE, ROOT, compose, composeContainers, cleanUp, freePort, podman, uniqueName, waitForHealthy } from './support.ts';
import { sendEvent, setUp, storedEventIds } from './flow.ts';
import { waitUntil } from '../wait.ts';

after(cleanUp);

async function composeEnv(extra: Record<string, string> = {}) {
  const port = await freePort();
  return { port, env: { EVENTLOG_IMAGE: IMAGE, EVENTLOG_PORT: String(port), EVENTLOG_BIND_ADDRESS: '127.0.0.1', ...extra } };
}

describe('compose files', { skip: NO_IMAGE }, () => {
  it('compose.yaml: the embedded store in a named volume, on EVENTLOG_PORT, restarting unless stopped; down -v removes it', async () => {
    const project = uniqueName('compose');
    const { port, env } = await composeEnv();
    const up = await compose(project, 'compose.yaml', env, 'up', '-d');
    assert.equal(up.code, 0, up.stderr);
    const baseUrl = `http://127.0.0.1:${port}`;
    await waitForHealthy(baseUrl);
    const container = (await composeContainers(project)).get('eventlog') ?? '';
    assert.equal(await podman('inspect', container, '--format', '{{.HostConfig.RestartPolicy.Name}}'), 'unless-stopped');
    const volumes = await podman('volume', 'ls', '--format', '{{.Name}}');
    assert.ok(volumes.split('\n').includes(`${project}_eventlog-data`), volumes);
    const installation = await setUp(baseUrl, container);
    const id = await sendEvent(baseUrl, installation, 'through compose.yaml');
    assert.ok((await storedEventIds(baseUrl, installation)).has(id));
    const down = await compose(project, 'compose.yaml', env, 'down', '-v');
    assert.equal(down.code, 0, down.stderr);
    assert.ok(!(await podman('volume', 'ls', '--format', '{{.Name}}')).split('\n').includes(`${project}_eventlog-data`));
  });

  it('compose.postgres.yaml: requires POSTGRES_PASSWORD, runs on the postgres service and survives its restart', async () => {
    const project = uniqueName('compose-pg');
    if (!fs.existsSync(path.join(ROOT, '.env'))) {
      const refused = await compose(project, 'compose.postgres.yaml', (await composeEnv()).env, 'ps');
      assert.notEqual(refused.code, 0);
      assert.match(refused.stderr + refused.stdout, /set POSTGRES_PASSWORD in \.env/);
    }
    const { port, env } = await composeEnv({ POSTGRES_PASSWORD: crypto.randomBytes(12).toString('hex') });
    const up = await compose(project, 'compose.postgres.yaml', env, 'up', '-d');
    assert.equal(up.code, 0, up.stderr);
    const baseUrl = `http://127.0.0.1:${port}`;
    await waitForHealthy(baseUrl, 240_000);
    const containers = await composeContainers(project);
    const eventlog = containers.get('eventlog') ?? '';
    const db = containers.get('db') ?? '';
    const installation = await setUp(baseUrl, eventlog);
    const first = await sendEvent(baseUrl, installation, 'before the database restarts');
    const startedAt = await podman('inspect', eventlog, '--format', '{{.State.StartedAt}}');

    await podman('restart', db);
    const second = await waitUntil(() => sendEvent(baseUrl, installation, 'after the database restarted').catch(() => null), {
      timeoutMs: 120_000,
      intervalMs: 250,
      message: 'an event accepted after the database restarted',
    });
    const stored = await storedEventIds(baseUrl, installation);
    assert.ok(stored.has(first) && stored.has(second));
    assert.equal(await podman('inspect', eventlog, '--format', '{{.State.StartedAt}}'), startedAt, 'the server kept running');
    const down = await compose(project, 'compose.postgres.yaml', env, 'down', '-v');
    assert.equal(down.code, 0, down.stderr);
  });
});
