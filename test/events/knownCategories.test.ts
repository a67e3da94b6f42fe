// A batch whose categories the process has seen committed skips their INSERT (decision 160); the
// categories of every other batch are still written, and a nested write remembers nothing.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { KnownCategories } from '../../src/features/events/knownCategories.ts';
import { insertEvents } from '../../src/features/events/queries.ts';
import { validateEventInput } from '../../src/features/events/validateEventInput.ts';
import { useTestApp } from '../helpers.ts';

const t = useTestApp();
const draft = (project: string, category: string) => validateEventInput({ project, category, title: `a ${category} event` });

async function categoriesOf(organizationId: string, projectId: string): Promise<string[]> {
  const rows = await t.services.sql<{ name: string }[]>`
    SELECT name FROM categories WHERE organization_id = ${organizationId} AND project_id = ${projectId} ORDER BY name`;
  return rows.map((row) => row.name);
}

describe('categories known to the process', () => {
  it('are not written again; a new one in the same batch is, and a category of another project is its own', async () => {
    const org = await t.org();
    const [first, second] = [await org.project(), await org.project()];
    const known = new KnownCategories();
    const options = { timeZone: 'UTC', knownCategories: known };
    await insertEvents(t.services.sql, org.id, [draft(first, 'signup')], options);
    assert.deepEqual(await categoriesOf(org.id, first), ['signup']);
    assert.equal(known.has(org.id, first, 'signup'), true);
    assert.equal(known.has(org.id, second, 'signup'), false);

    // Gone behind the process's back (never happens but with its project): the known category is skipped.
    await t.services.sql`DELETE FROM categories WHERE organization_id = ${org.id} AND project_id = ${first}`;
    await insertEvents(t.services.sql, org.id, [draft(first, 'signup')], options);
    assert.deepEqual(await categoriesOf(org.id, first), []);

    // One unknown category in the batch writes the batch's categories.
    await insertEvents(t.services.sql, org.id, [draft(first, 'signup'), draft(first, 'payment'), draft(second, 'signup')], options);
    assert.deepEqual(await categoriesOf(org.id, first), ['payment', 'signup']);
    assert.deepEqual(await categoriesOf(org.id, second), ['signup']);
  });

  it('are remembered only after a commit of the call itself, not from a savepoint in a transaction that rolls back', async () => {
    const org = await t.org();
    const project = await org.project();
    const known = new KnownCategories();
    await t.services.sql
      .begin(async (tx) => {
        await insertEvents(tx, org.id, [draft(project, 'deploy')], { timeZone: 'UTC', knownCategories: known });
        throw new Error('roll back');
      })
      .catch(() => {});
    assert.equal(known.has(org.id, project, 'deploy'), false);
    await insertEvents(t.services.sql, org.id, [draft(project, 'deploy')], { timeZone: 'UTC', knownCategories: known });
    assert.deepEqual(await categoriesOf(org.id, project), ['deploy']);
  });

  it('reach the categories list through the API as before', async () => {
    const org = await t.org();
    const project = await org.project();
    for (const category of ['a', 'b', 'a', 'a']) assert.equal((await org.post('/api/events', { project, category, title: 'x' })).status, 201);
    const reply = await org.get(`/api/categories?project=${project}`);
    assert.deepEqual(reply.body, [
      { name: 'a', count: 3 },
      { name: 'b', count: 1 },
    ]);
  });
});
