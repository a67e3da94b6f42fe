// The image as operations.md ("Container image") describes it: its build, a read-only run set
// up through the API and the command line, and a SIGTERM stop under load.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { IMAGE, NO_IMAGE, api, cleanUp, eventlogIn, freePort, podman, run, runContainer, waitForHealthy } from './support.ts';
import { RECOVERY, sendEvent, setUp, storedEventIds } from './flow.ts';
import { sleep, waitUntil } from '../wait.ts';

const BASE = 'docker.io/library/node:20-bookworm-slim';
const secrets = fs.mkdtempSync(path.join(os.tmpdir(), 'eventlog-container-secrets-'));
after(async () => {
  await cleanUp();
  fs.rmSync(secrets, { recursive: true, force: true });
});

describe('the container image', { skip: NO_IMAGE }, () => {
  it('is node:20-bookworm-slim plus at most 200 MB, runs `eventlog serve` as uid 1000 with HOST, PORT, DATA_DIR, EXPOSE, VOLUME and a HEALTHCHECK', async () => {
    const image = JSON.parse(await podman('image', 'inspect', IMAGE))[0];
    const base = JSON.parse(await podman('image', 'inspect', BASE))[0];
    assert.deepEqual(image.RootFS.Layers.slice(0, base.RootFS.Layers.length), base.RootFS.Layers, 'built on node:20-bookworm-slim');
    const added = image.Size - base.Size;
    console.log(`# image size above ${BASE}: ${(added / 1e6).toFixed(1)} MB`);
    assert.ok(added <= 200e6, `the image adds ${added} bytes`);
    const config = image.Config;
    assert.equal(config.User, 'node');
    for (const setting of ['HOST=0.0.0.0', 'PORT=3000', 'DATA_DIR=/data']) assert.ok(config.Env.includes(setting), setting);
    assert.deepEqual(Object.keys(config.ExposedPorts), ['3000/tcp']);
    assert.deepEqual(Object.keys(config.Volumes), ['/data']);
    assert.deepEqual(config.Cmd, ['eventlog', 'serve']);
    // podman keeps the healthcheck beside Config; Docker inside it.
    const healthcheck = config.Healthcheck ?? image.HealthCheck ?? image.Healthcheck;
    assert.match(healthcheck.Test.join(' '), /\/healthz/);
  });

  it('runs with a read-only root, takes a secret from a file, and a SIGTERM under load keeps every acknowledged event, exits 0 within 10 s and needs no recovery', async () => {
    fs.chmodSync(secrets, 0o755);
    fs.writeFileSync(path.join(secrets, 'metrics_token'), 'metrics-secret-42\n', { mode: 0o644 });
    const port = await freePort();
    const baseUrl = `http://127.0.0.1:${port}`;
    const container = await runContainer({
      port,
      args: ['--read-only', '--read-only-tmpfs=false', '--tmpfs', '/tmp', '-v', `${secrets}:/run/secrets:ro`],
      // debug: PostgreSQL's own lines are in the log, where a recovery would show.
      env: { METRICS_TOKEN_FILE: '/run/secrets/metrics_token', LOG_LEVEL: 'debug' },
    });
    await waitForHealthy(baseUrl);
    assert.equal(await podman('exec', container, 'id', '-u'), '1000');
    const installation = await setUp(baseUrl, container);
    assert.equal((await eventlogIn(container, ['key', 'list', installation.orgId])).keys.length, 1);
    assert.equal((await api(baseUrl, 'GET', '/metrics', undefined, { authorization: 'Bearer metrics-secret-42' })).status, 200);

    // Events keep arriving while `podman stop` sends SIGTERM: those answered 201 must survive.
    const acknowledged: string[] = [];
    let sending = true;
    const sender = async (lane: number) => {
      for (let i = 0; sending; i++) {
        try {
          acknowledged.push(await sendEvent(baseUrl, installation, `order ${lane}-${i}`));
        } catch {
          if (!sending) return;
          // Time itself: the pace of retries while the server refuses.
          await sleep(20);
        }
      }
    };
    const senders = [1, 2, 3, 4].map(sender);
    await waitUntil(() => acknowledged.length >= 40, { timeoutMs: 120_000, message: '40 acknowledged events' });
    const stopStarted = Date.now();
    await podman('stop', '--time', '10', container);
    const stopSeconds = (Date.now() - stopStarted) / 1000;
    sending = false;
    await Promise.all(senders);
    console.log(`# stop took ${stopSeconds.toFixed(1)} s with ${acknowledged.length} events acknowledged`);
    assert.ok(stopSeconds < 10, `the stop took ${stopSeconds} s`);
    assert.equal(await podman('inspect', container, '--format', '{{.State.ExitCode}}'), '0');
    const firstLog = (await run('podman', ['logs', container])).stdout;
    assert.match(firstLog, /database system is shut down/);

    await podman('start', container);
    await waitForHealthy(baseUrl);
    const stored = await storedEventIds(baseUrl, installation);
    assert.deepEqual(
      acknowledged.filter((id) => !stored.has(id)),
      [],
      'acknowledged events missing after the restart',
    );
    const log = (await run('podman', ['logs', container])).stdout;
    assert.match(log, /database system was shut down at/);
    assert.doesNotMatch(log, RECOVERY);

    // The command line beside the running server, on the read-only root: a backup into the volume.
    const backup = await eventlogIn(container, ['backup', '/data/backup.json.gz']);
    assert.equal(backup.file, '/data/backup.json.gz');
    assert.ok(backup.bytes > 0);
    await podman('stop', '--time', '10', container);
    assert.equal(await podman('inspect', container, '--format', '{{.State.ExitCode}}'), '0');
  });
});
