// A newer image started on an older image's volume migrates it and keeps everything
// (operations.md, "Container image"). The older image is built by the runner from the parent of
// the newest commit that added a migration (scripts/containerLane.js).
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { NO_IMAGE, PREVIOUS_IMAGE, api, cleanUp, freePort, podman, remember, run, runContainer, uniqueName, waitForHealthy } from './support.ts';
import { OWNER, RECOVERY, sendEvent, setUp, storedEventIds } from './flow.ts';

after(cleanUp);

describe('an upgrade', { skip: NO_IMAGE || (!PREVIOUS_IMAGE && 'no image of an older commit (not a git checkout)') }, () => {
  it("the newer image on the older one's volume applies the new migrations and keeps the organization, the key and every event", async () => {
    const volume = uniqueName('v');
    remember('volume', volume);
    const port = await freePort();
    const baseUrl = `http://127.0.0.1:${port}`;
    const older = await runContainer({ image: PREVIOUS_IMAGE, volume, port, env: { LOG_LEVEL: 'debug' } });
    await waitForHealthy(baseUrl);
    const installation = await setUp(baseUrl, older);
    const sent: string[] = [];
    for (let i = 0; i < 20; i++) sent.push(await sendEvent(baseUrl, installation, `before the upgrade ${i}`));
    await podman('stop', '--time', '10', older);
    assert.equal(await podman('inspect', older, '--format', '{{.State.ExitCode}}'), '0');

    const newer = await runContainer({ volume, port, env: { LOG_LEVEL: 'debug' } });
    await waitForHealthy(baseUrl);
    const log = (await run('podman', ['logs', newer])).stdout;
    assert.match(log, /applying migration \d+_/);
    assert.doesNotMatch(log, RECOVERY);
    const stored = await storedEventIds(baseUrl, installation);
    assert.deepEqual(
      sent.filter((id) => !stored.has(id)),
      [],
    );
    sent.push(await sendEvent(baseUrl, installation, 'after the upgrade'));
    assert.equal((await storedEventIds(baseUrl, installation)).size, sent.length);
    assert.equal((await api(baseUrl, 'POST', '/api/session', OWNER)).status, 200, 'the owner still signs in');
  });
});
