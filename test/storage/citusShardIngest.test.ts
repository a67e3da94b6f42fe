// Decision 232: on Citus, a call of ingest_events that Citus delegated to the node of its
// organization's shards is handed to a copy of the function that names those shards, written by
// migrations/repeatable/ingest_events_on_shards.sql. These check the copies, the hand-over, and
// that both ways write the same rows. On the other stores there is nothing to check.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { insertEvents } from '../../src/features/events/queries.ts';
import { validateEventInput } from '../../src/features/events/validateEventInput.ts';
import { useTestApp } from '../helpers.ts';

const onCitus = process.env.EVENTLOG_TEST_STORE === 'citus';
const t = useTestApp();
const SIGNATURE = '(text,text,text,text,boolean,boolean,boolean,text,integer)';

/** What a batch wrote for an organization, without its id: the same drafts must read the same. */
async function writtenBy(organizationId: string): Promise<unknown> {
  const sql = t.services.sql;
  const [events, daily, users, outbox, usage, counter] = await Promise.all([
    sql`SELECT id, category, title, description, tags::text, metadata::text, user_id, notify FROM events
        WHERE organization_id = ${organizationId} ORDER BY id`,
    sql`SELECT category, count FROM event_daily_counts WHERE organization_id = ${organizationId} ORDER BY category`,
    sql`SELECT user_id, event_count FROM app_users WHERE organization_id = ${organizationId} ORDER BY user_id`,
    sql`SELECT event_id FROM notify_outbox WHERE organization_id = ${organizationId} ORDER BY event_id`,
    sql`SELECT events FROM organization_usage WHERE organization_id = ${organizationId}`,
    sql`SELECT last_id FROM id_counters WHERE organization_id = ${organizationId} AND kind = 'event'`,
  ]);
  return { events, daily, users, outbox, usage, counter };
}

describe("ingest through its shards' own copy of the function on Citus", { skip: !onCitus && 'the store is not Citus' }, () => {
  it('every shard of events has its copy, and the copy names no distributed table', async () => {
    const sql = t.services.sql;
    const shards = await sql<{ shardid: string }[]>`SELECT shardid::text FROM pg_dist_shard WHERE logicalrelid = 'events'::regclass`;
    const tables = (await sql<{ name: string }[]>`SELECT logicalrelid::text AS name FROM pg_dist_partition`).map((row) => row.name);
    const named = new RegExp(`\\b(FROM|JOIN|INTO|UPDATE) (${tables.join('|')})\\b(?!_)`);
    assert.ok(shards.length > 1);
    for (const { shardid } of shards) {
      const [copy] = await sql<{ source: string }[]>`
        SELECT prosrc AS source FROM pg_proc WHERE oid = to_regprocedure(${`ingest_events_shard_${shardid}${SIGNATURE}`})`;
      assert.ok(copy, `no copy for shard ${shardid}`);
      assert.match(copy.source, new RegExp(`INSERT INTO events_${shardid} `));
      assert.doesNotMatch(copy.source, named);
      assert.match(copy.source, /v_on_citus boolean := false;/);
    }
  });

  it('a call Citus delegates to a worker is handed to its copy; a call on the coordinator is not', async () => {
    const org = await t.org();
    const sql = t.services.sql;
    const [shard] = await sql<{ id: string }[]>`SELECT get_shard_id_for_distribution_column('events', ${org.id}::text)::text AS id`;
    // Each worker is asked as a delegated call would ask it (run_command_on_workers names its
    // connections otherwise): only the one that holds the shard names a copy.
    const answers = await sql<{ result: string }[]>`
      SELECT result FROM run_command_on_workers(format(
        $$SELECT ingest_events_local_shard(%L) FROM (SELECT set_config('application_name', 'citus_internal gpid=10000000001', true)) AS delegated$$,
        ${org.id}::text))`;
    assert.deepEqual(
      answers.map((row) => row.result).filter((result) => result !== ''),
      [`ingest_events_shard_${shard!.id}`],
    );
    const [here] = await sql<{ name: string | null }[]>`SELECT ingest_events_local_shard(${org.id}) AS name`;
    assert.equal(here?.name, null);
  });

  it("a delegated batch writes the same rows as the distributed tables' way, in a caller's transaction", async () => {
    const [delegated, inTransaction] = [await t.org(), await t.org()];
    const drafts = (project: string) =>
      Array.from({ length: 12 }, (_, i) =>
        validateEventInput({
          project,
          category: `c${i % 3}`,
          title: `Event ${i}`,
          description: i % 2 ? 'with a description' : undefined,
          user_id: i % 4 ? `user-${i % 4}` : undefined,
          notify: i % 5 === 0,
          tags: { plan: i % 2 ? 'pro' : 'free' },
        }),
      );
    const [delegatedProject, inTransactionProject] = [await delegated.project('Same'), await inTransaction.project('Same')];
    const options = { timeZone: 'UTC' };
    const first = await insertEvents(t.services.sql, delegated.id, drafts(delegatedProject), options);
    const second = await t.services.sql.begin((tx) => insertEvents(tx, inTransaction.id, drafts(inTransactionProject), options));
    assert.deepEqual(
      first.inserted.map((row) => row.id),
      second.inserted.map((row) => row.id),
    );
    assert.deepEqual(await writtenBy(delegated.id), await writtenBy(inTransaction.id));
  });
});
