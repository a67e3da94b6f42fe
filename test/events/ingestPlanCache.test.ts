// On Citus, ingest's function has its statements planned at every call (decision 227) by setting
// plan_cache_mode for the call; a caller's transaction (an import, an alert's events) must find its
// own setting again afterwards, and a refused batch must not leave the function's either.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { insertEvents } from '../../src/features/events/queries.ts';
import { validateEventInput } from '../../src/features/events/validateEventInput.ts';
import { useTestApp } from '../helpers.ts';

const t = useTestApp();
const draft = (project: string, title: string) => validateEventInput({ project, category: 'deploy', title });

describe("ingest's function and the caller's plan cache setting", () => {
  // The default, auto: a caller cannot force generic plans on Citus, whose INSERT ... SELECTs with
  // parameters have none.
  it('leaves the setting of the transaction it is called in as it was, after a batch and after a refused one', async () => {
    const org = await t.org();
    const project = await org.project();
    // A cap of two: the second batch passes the first check, then the monthly usage row refuses it.
    await t.services.sql`UPDATE organizations SET monthly_event_cap = 2 WHERE id = ${org.id}`;
    const settings = await t.services.sql.begin(async (tx) => {
      const written = await insertEvents(tx, org.id, [draft(project, 'one'), draft(project, 'two')], { timeZone: 'UTC', usage: 'capped' });
      assert.equal(written.inserted.length, 2);
      const [afterBatch] = await tx<{ mode: string }[]>`SELECT current_setting('plan_cache_mode') AS mode`;
      const refused = await insertEvents(tx, org.id, [draft(project, 'three')], { timeZone: 'UTC', usage: 'capped' });
      const [afterRefusal] = await tx<{ mode: string }[]>`SELECT current_setting('plan_cache_mode') AS mode`;
      return { afterBatch: afterBatch!.mode, afterRefusal: afterRefusal!.mode, refused: refused.refused.length };
    });
    assert.deepEqual(settings, { afterBatch: 'auto', afterRefusal: 'auto', refused: 1 });
  });
});
