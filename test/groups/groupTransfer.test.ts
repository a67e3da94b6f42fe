import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type TestOrg, useTestApp } from '../helpers.ts';

const t = useTestApp();

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- documents under test are arbitrary JSON
type Json = any;

async function exported(org: TestOrg): Promise<Json> {
  const reply = await org.get('/api/export');
  assert.equal(reply.status, 200);
  return JSON.parse(reply.raw.body);
}

describe('export and import carry groups', () => {
  it('a group, its properties and users survive an export and an import into another organization', async () => {
    const source = await t.org();
    const project = await source.project('Shop');
    assert.equal(
      (await source.post('/api/group', { project, group_id: 'acme', user_id: 'ann', properties: { name: 'Acme', seats: 3, paying: true } })).status,
      200,
    );
    assert.equal((await source.post('/api/group', { project, group_id: 'acme', user_id: 'bob' })).status, 200);
    assert.equal((await source.post('/api/group', { project, group_id: 'empty', properties: {} })).status, 200);
    assert.equal((await source.post('/api/events', { project, category: 'c', title: 't', user_id: 'ann', created_at: 1700000000 })).status, 201);
    const before = (await source.get(`/api/groups/acme?project=${project}`)).body.group;
    const document = await exported(source);
    assert.deepEqual(document.projects[0].groups, [
      { id: 'acme', properties: { name: 'Acme', seats: 3, paying: true }, firstSeenAt: before.firstSeenAt, users: ['ann', 'bob'] },
      { id: 'empty', properties: {}, firstSeenAt: document.projects[0].groups[1].firstSeenAt, users: [] },
    ]);

    const target = await t.org();
    const imported = await target.post('/api/import', document);
    assert.equal(imported.status, 200, JSON.stringify(imported.body));
    const newProject = imported.body.idMap[project];
    const after = (await target.get(`/api/groups/acme?project=${newProject}`)).body.group;
    assert.deepEqual(after, { ...before, project: newProject });
    assert.equal(after.lastSeenAt, new Date(1700000000 * 1000).toISOString());
    assert.equal((await target.get(`/api/users/ann?project=${newProject}`)).body.eventCount, 1, "a member's events still count");
    assert.equal((await target.get(`/api/users/bob?project=${newProject}`)).status, 200, 'a member without events exists');
    assert.equal((await target.get(`/api/groups?project=${newProject}`)).body.groups.length, 2);
    assert.deepEqual((await exported(target)).projects[0].groups, document.projects[0].groups);
  });

  it('a document without groups (an earlier release) imports as before', async () => {
    const org = await t.org();
    const reply = await org.post('/api/import', {
      version: 1,
      projects: [{ id: 'p', name: 'Old', events: [{ category: 'c', title: 't', user_id: 'u' }], insights: [], alerts: [] }],
    });
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    assert.deepEqual((await org.get(`/api/groups?project=${reply.body.idMap.p}`)).body.groups, []);
  });

  it('rows of one id merge; bad group rows are 400 naming the row, and nothing is imported', async () => {
    const org = await t.org();
    const merged = await org.post('/api/import', {
      projects: [
        {
          id: 'p',
          name: 'Merge',
          groups: [
            { id: 'g', properties: { a: 1, b: 2 }, users: ['x'] },
            { id: 'g', properties: { b: null }, users: ['y', 'x'] },
          ],
        },
      ],
    });
    assert.equal(merged.status, 200, JSON.stringify(merged.body));
    const group = (await org.get(`/api/groups/g?project=${merged.body.idMap.p}`)).body.group;
    assert.deepEqual([group.properties, group.userIds], [{ a: 1 }, ['x', 'y']]);

    const bad: Json[] = [
      { id: '' },
      { id: 'x'.repeat(256) },
      { id: 'g', properties: { Upper: 1 } },
      { id: 'g', properties: { k: 'v'.repeat(1001) } },
      { id: 'g', users: [''] },
      { id: 'g', users: ['u'.repeat(256)] },
      { id: 'g', firstSeenAt: 'yesterday' },
      { id: 'g', users: [7] },
      { properties: {} },
    ];
    const other = await t.org();
    for (const row of bad) {
      const reply = await other.post('/api/import', { projects: [{ name: 'Bad', events: [{ category: 'c', title: 't' }], groups: [{ id: 'fine' }, row] }] });
      assert.equal(reply.status, 400, JSON.stringify(row).slice(0, 100));
      assert.match(reply.body.error, /projects\[0\]\.groups\[1\]/, reply.body.error);
    }
    assert.equal((await other.get('/api/projects')).body.length, 0);
  });
});
