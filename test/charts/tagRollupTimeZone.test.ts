import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { type Sql, createClient, withTransaction } from '../../src/db/client.ts';
import { migrate } from '../../src/db/migrate.ts';
import { createLogger } from '../../src/logger.ts';
import { syncChartTimeZone } from '../../src/features/charts/syncChartTimeZone.ts';
import { TagRollupBackfiller } from '../../src/features/charts/tagRollupBackfiller.ts';
import { registerTagKey } from '../../src/features/charts/tagRollupReady.ts';
import { insertEvents } from '../../src/features/events/queries.ts';
import { validateEventInput } from '../../src/features/events/validateEventInput.ts';
import { type OwnDatabase, createOwnDatabase } from '../ownDatabase.ts';

/**
 * The time-zone rebuild empties the per-day counts by tag value and has their keys backfilled
 * again in the new zone (decision 131). It works on the whole installation, so the file gets a
 * database of its own.
 */
describe('per-day counts by tag value when the chart time zone changes', () => {
  const state = {} as { own: OwnDatabase; clients: Sql[] };
  const log = createLogger('silent');

  before(async () => {
    const url = process.env.DATABASE_URL;
    if (!url) throw new Error('Run the tests with `npm test`: it provides DATABASE_URL');
    state.own = await createOwnDatabase(url, { prefix: 'eventlog_tagtz' });
    state.clients = [];
  });

  after(async () => {
    for (const client of state.clients) await client.end({ timeout: 5 });
    await state.own?.drop();
  });

  const connect = (timeZone: string) => {
    const client = createClient(state.own.url, { timeZone, max: 4 });
    state.clients.push(client);
    return client;
  };

  const buckets = async (sql: Sql, projectId: string) => [
    ...(await sql<{ day: string; value: string | null; count: number }[]>`
      SELECT to_char(day, 'YYYY-MM-DD') AS day, value #>> '{}' AS value, sum(count)::int AS count FROM tag_daily_counts
      WHERE project_id = ${projectId} AND count > 0 GROUP BY day, value ORDER BY day, value`),
  ];

  const draft = (projectId: string, plan: string, iso: string) => ({
    ...validateEventInput({ project: projectId, category: 'c', title: 't', created_at: Date.parse(iso) / 1000 }),
    tags: JSON.stringify({ plan }),
  });

  it('rebuilds in the new zone: emptied, backfilled again, then kept by ingest in that zone', async () => {
    const utc = connect('UTC');
    await migrate(utc);
    await syncChartTimeZone(utc, 'UTC');
    const suffix = crypto.randomBytes(4).toString('hex');
    const organizationId = `org${suffix}`;
    const projectId = `prj${suffix}abcde`.slice(0, 12);
    await utc`INSERT INTO organizations (id, name) VALUES (${organizationId}, 'tz')`;
    await utc`INSERT INTO projects (id, organization_id, name) VALUES (${projectId}, ${organizationId}, 'tz')`;
    // 20:00 UTC on 10 March is 09:00 on 11 March in Auckland; 05:00 UTC is 18:00 on the 10th.
    await insertEvents(
      utc,
      organizationId,
      [draft(projectId, 'pro', '2024-03-10T20:00:00Z'), draft(projectId, 'free', '2024-03-10T05:00:00Z'), draft(projectId, 'pro', '2024-03-10T21:00:00Z')],
      { timeZone: 'UTC' },
    );
    const q = { organizationId, projectId, tagKey: 'plan' };
    await withTransaction(utc, (tx) => registerTagKey(tx, q));
    await new TagRollupBackfiller(utc, log, 'UTC', 1).backfill(organizationId, projectId, 'plan');
    assert.deepEqual(await buckets(utc, projectId), [
      { day: '2024-03-10', value: 'free', count: 1 },
      { day: '2024-03-10', value: 'pro', count: 2 },
    ]);

    assert.equal(await syncChartTimeZone(utc, 'Pacific/Auckland'), true);
    assert.deepEqual(await buckets(utc, projectId), []);
    const [key] = await utc<{ countedAfterId: number; backfilledUpTo: number }[]>`
      SELECT counted_after_id AS "countedAfterId", backfilled_up_to AS "backfilledUpTo" FROM tag_rollup_keys WHERE project_id = ${projectId}`;
    assert.deepEqual(key, { countedAfterId: 3, backfilledUpTo: 0 });

    const auckland = connect('Pacific/Auckland');
    await insertEvents(auckland, organizationId, [draft(projectId, 'pro', '2024-03-10T22:00:00Z')], { timeZone: 'Pacific/Auckland' });
    await new TagRollupBackfiller(auckland, log, 'Pacific/Auckland', 2).backfill(organizationId, projectId, 'plan');
    assert.deepEqual(await buckets(auckland, projectId), [
      { day: '2024-03-10', value: 'free', count: 1 },
      { day: '2024-03-11', value: 'pro', count: 3 },
    ]);
  });
});
