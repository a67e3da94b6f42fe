// Notification preferences (extensions.md, "Notification preferences"): GET and PUT
// /api/me/notifications, a dashboard session only, defaults, whole replacement, and 400s that
// change nothing.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { signInAs } from '../dashboard/signedIn.ts';
import { useTestApp } from '../helpers.ts';
import { put } from './support.ts';

const t = useTestApp();
const DEFAULTS = { projects: {}, email: false, quietHours: null, snoozedUntil: null };

describe('notification preferences', () => {
  it('defaults, then PUT replaces the whole object and GET reads it back', async () => {
    const org = await t.org();
    const project = await org.project();
    const member = await signInAs(t, org);
    const initial = await member.get('/api/me/notifications');
    assert.equal(initial.status, 200);
    assert.deepEqual(initial.body, DEFAULTS);
    const body = {
      projects: { [project]: 'alerts' },
      quietHours: { timeZone: 'Europe/Paris', start: '22:00', end: '07:00', days: [5, 1, 2, 3, 4] },
      snoozedUntil: 2_000_000_000,
    };
    const saved = await put(t, member, body);
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    const expected = { ...body, email: false, quietHours: { ...body.quietHours, days: [1, 2, 3, 4, 5] } };
    assert.deepEqual(saved.body, expected);
    assert.deepEqual((await member.get('/api/me/notifications')).body, expected);
    // Left-out fields take their defaults.
    const replaced = await put(t, member, { projects: { [project]: 'none' } });
    assert.deepEqual(replaced.body, { ...DEFAULTS, projects: { [project]: 'none' } });
    const other = await signInAs(t, org);
    assert.deepEqual((await other.get('/api/me/notifications')).body, DEFAULTS, 'each member has their own');
  });

  it('an API key gets 403', async () => {
    const org = await t.org();
    assert.equal((await org.get('/api/me/notifications')).status, 403);
    const reply = await t.request({ method: 'PUT', url: '/api/me/notifications', body: {}, headers: { authorization: `Bearer ${org.key}` } });
    assert.equal(reply.status, 403);
  });

  it('400 for bad input, and nothing changes', async () => {
    const org = await t.org();
    const project = await org.project();
    const foreign = await (await t.org()).project();
    const member = await signInAs(t, org);
    const good = {
      projects: { [project]: 'all' },
      quietHours: { timeZone: 'UTC', start: '23:00', end: '06:00', days: [6, 7] },
      snoozedUntil: null,
      email: false,
    };
    assert.equal((await put(t, member, good)).status, 200);
    const quiet = (fields: object) => ({ quietHours: { ...good.quietHours, ...fields } });
    for (const body of [
      { projects: { nope: 'all' } },
      { projects: { [foreign]: 'all' } },
      { projects: { [project]: 'some' } },
      quiet({ timeZone: 'Mars/Olympus_Mons' }),
      quiet({ timeZone: '' }),
      quiet({ start: '24:00' }),
      quiet({ end: '7:00' }),
      quiet({ end: '07:60' }),
      quiet({ days: [] }),
      quiet({ days: [0] }),
      quiet({ days: [8] }),
      quiet({ days: [1.5] }),
      { quietHours: { timeZone: 'UTC', start: '22:00', end: '07:00' } },
      { snoozedUntil: 'tomorrow' },
      { snoozedUntil: -1 },
      { email: 'yes' },
      { extra: 1 },
      { email: true },
    ]) {
      const reply = await put(t, member, body);
      assert.equal(reply.status, 400, JSON.stringify(body));
      assert.equal(typeof (reply.body as { error: string }).error, 'string');
    }
    assert.deepEqual((await member.get('/api/me/notifications')).body, good);
  });
});
