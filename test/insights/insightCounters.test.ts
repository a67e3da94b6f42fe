import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type Reply, type TestOrg, useTestApp } from '../helpers.ts';

const t = useTestApp();

function patch(org: TestOrg, body: unknown): Promise<Reply> {
  return t.request({ method: 'PATCH', url: '/api/insight', body, headers: { authorization: `Bearer ${org.key}` } });
}

async function values(org: TestOrg, project: string): Promise<Record<string, string>> {
  const reply = await org.get(`/api/insights?project=${project}`);
  assert.equal(reply.status, 200);
  return Object.fromEntries((reply.body as Array<{ title: string; value: string }>).map((i) => [i.title, i.value]));
}

describe('PATCH /api/insight {"$inc": n}', () => {
  it('starts a missing insight at 0 and answers the new value as text', async () => {
    const org = await t.org();
    const project = await org.project();
    const first = await patch(org, { project, title: 'Signups', value: { $inc: 1 }, icon: '📈' });
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assert.deepEqual(first.body, { ok: true, value: '1' });
    assert.deepEqual((await patch(org, { project, title: 'Signups', value: { $inc: 2.5 } })).body, { ok: true, value: '3.5' });
    assert.deepEqual((await patch(org, { project, title: 'Signups', value: { $inc: -10 } })).body, { ok: true, value: '-6.5' });
    const [insight] = (await org.get(`/api/insights?project=${project}`)).body;
    assert.equal(insight.icon, '📈', 'an increment without icon keeps it');
    assert.equal(insight.value, '-6.5');
  });

  it('adds in IEEE-754 doubles and writes the sum as String(number) does', async () => {
    const org = await t.org();
    const project = await org.project();
    const cases: Array<[string, number, string]> = [
      ['0.1', 0.2, String(0.1 + 0.2)],
      [' 12 ', 1, '13'],
      ['0x10', 1, '17'],
      ['1e21', 0, '1e+21'],
      ['0.000001', 0, '0.000001'],
      ['1e-7', 0, '1e-7'],
      ['9007199254740992', 2, String(9007199254740992 + 2)],
      ['123456789012345680000', 0, '123456789012345680000'],
      ['-0', 0, '0'],
      ['1e-400', 5, '5'],
      ['.5', 1, '1.5'],
    ];
    for (const [start, n, expected] of cases) {
      const title = `from ${start}`;
      assert.equal((await org.post('/api/insight', { project, title, value: start })).status, 200);
      const reply = await patch(org, { project, title, value: { $inc: n } });
      assert.equal(reply.status, 200, `${start}: ${JSON.stringify(reply.body)}`);
      assert.equal(reply.body.value, expected, `${JSON.stringify(start)} + ${n}`);
    }
  });

  it('refuses a value that is not a finite number, and a sum that is not finite, changing nothing', async () => {
    const org = await t.org();
    const project = await org.project();
    for (const start of ['', '  ', 'abc', '12px', 'Infinity', '1e400', '1_000', 'NaN']) {
      const title = `bad ${JSON.stringify(start)}`;
      await org.post('/api/insight', { project, title, value: start });
      const reply = await patch(org, { project, title, value: { $inc: 1 } });
      assert.equal(reply.status, 400, `${JSON.stringify(start)}: ${JSON.stringify(reply.body)}`);
      assert.equal(typeof reply.body.error, 'string');
      assert.equal((await values(org, project))[title], start);
    }
    await org.post('/api/insight', { project, title: 'huge', value: String(Number.MAX_VALUE) });
    assert.equal((await patch(org, { project, title: 'huge', value: { $inc: Number.MAX_VALUE } })).status, 400);
    assert.equal((await values(org, project)).huge, String(Number.MAX_VALUE));
  });

  it('refuses bad bodies with 400 and writes nothing', async () => {
    const org = await t.org();
    const project = await org.project();
    const bodies: unknown[] = [
      { project, title: 'x', value: 1 },
      { project, title: 'x', value: { $inc: '1' } },
      { project, title: 'x', value: { $inc: null } },
      { project, title: 'x', value: {} },
      { project, title: '', value: { $inc: 1 } },
      { project, value: { $inc: 1 } },
      { project, title: 'x', value: { $inc: 1 }, icon: 5 },
    ];
    for (const body of bodies) {
      const reply = await patch(org, body);
      assert.equal(reply.status, 400, JSON.stringify(body));
    }
    const raw = await t.request({
      method: 'PATCH',
      url: '/api/insight',
      payload: `{"project":"${project}","title":"x","value":{"$inc":1e400}}`,
      headers: { authorization: `Bearer ${org.key}`, 'content-type': 'application/json' },
    });
    assert.equal(raw.status, 400);
    assert.deepEqual(await values(org, project), {});
  });

  it('100 parallel +1 add exactly 100, each reply carrying its own result', async () => {
    const org = await t.org();
    const project = await org.project();
    const replies = await Promise.all(Array.from({ length: 100 }, () => patch(org, { project, title: 'Hits', value: { $inc: 1 } })));
    assert.ok(
      replies.every((r) => r.status === 200),
      JSON.stringify(replies.find((r) => r.status !== 200)?.body),
    );
    const seen = replies.map((r) => Number(r.body.value)).sort((a, b) => a - b);
    assert.deepEqual(
      seen,
      Array.from({ length: 100 }, (_, i) => i + 1),
    );
    assert.equal((await values(org, project)).Hits, '100');
    const again = await Promise.all(Array.from({ length: 100 }, () => patch(org, { project, title: 'Hits', value: { $inc: 1 } })));
    assert.ok(again.every((r) => r.status === 200));
    assert.equal((await values(org, project)).Hits, '200');
  });

  it('does not consume an id when it updates', async () => {
    const org = await t.org();
    const project = await org.project();
    await patch(org, { project, title: 'a', value: { $inc: 1 } });
    for (let i = 0; i < 5; i++) await patch(org, { project, title: 'a', value: { $inc: 1 } });
    await org.post('/api/insight', { project, title: 'b', value: 'x' });
    const ids = (await org.get(`/api/insights?project=${project}`)).body.map((i: { id: number }) => i.id);
    assert.deepEqual(ids, [1, 2]);
  });

  it("answers 404 for a missing or another organization's project and 401 without a key", async () => {
    const org = await t.org();
    const other = await t.org();
    const theirs = await other.project();
    assert.equal((await patch(org, { project: theirs, title: 'x', value: { $inc: 1 } })).status, 404);
    assert.equal((await patch(org, { project: 'nosuchproject', title: 'x', value: { $inc: 1 } })).status, 404);
    assert.deepEqual(await values(other, theirs), {});
    const anonymous = await t.request({ method: 'PATCH', url: '/api/insight', body: { project: theirs, title: 'x', value: { $inc: 1 } } });
    assert.equal(anonymous.status, 401);
  });
});
