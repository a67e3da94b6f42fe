// GET /api/users/:userId/activity: a user's events per day over the last 30 days, today
// included, every day present, counted in the installation's time zone (as the charts count).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type TestOrg, useTestApp } from '../helpers.ts';

const t = useTestApp();
const NOW = Math.floor(Date.now() / 1000);
const DAY = 86_400;

async function event(org: TestOrg, project: string, userId: string, createdAt: number): Promise<void> {
  const reply = await org.post('/api/events', { project, category: 'c', title: 't', user_id: userId, created_at: createdAt });
  assert.equal(reply.status, 201, JSON.stringify(reply.body));
}

/** The calendar day of a Unix time in the server's time zone. */
const dayOf = (seconds: number) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: t.services.config.timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(seconds * 1000);

const activity = (org: TestOrg, project: string | undefined, userId: string) =>
  org.get(`/api/users/${encodeURIComponent(userId)}/activity${project === undefined ? '' : `?project=${project}`}`);

describe("a user's activity", () => {
  it('counts the last 30 days, oldest first, with zero days, and leaves older events and other users out', async () => {
    const org = await t.org();
    const project = await org.project();
    const moments = [NOW - 60, NOW - 120, NOW - 3 * DAY, NOW - 28 * DAY];
    for (const moment of moments) await event(org, project, 'ann/1', moment);
    await event(org, project, 'ann/1', NOW - 45 * DAY);
    await event(org, project, 'bob', NOW - 60);

    const reply = await activity(org, project, 'ann/1');
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    const days = reply.body.days as Array<{ day: string; count: number }>;
    assert.equal(days.length, 30);
    assert.equal(days.at(-1)!.day, dayOf(NOW));
    assert.deepEqual(
      days.map((d) => d.day),
      [...days.map((d) => d.day)].sort(),
      'oldest first',
    );
    assert.equal(new Set(days.map((d) => d.day)).size, 30, 'consecutive distinct days');
    const expected = new Map<string, number>();
    for (const moment of moments) expected.set(dayOf(moment), (expected.get(dayOf(moment)) ?? 0) + 1);
    for (const { day, count } of days) assert.equal(count, expected.get(day) ?? 0, day);
    assert.equal(
      days.reduce((sum, d) => sum + d.count, 0),
      4,
    );
  });

  it('answers every day at 0 for a user known only by identify', async () => {
    const org = await t.org();
    const project = await org.project();
    assert.equal((await org.post('/api/identify', { project, user_id: 'quiet', properties: { plan: 'free' } })).status, 200);
    const reply = await activity(org, project, 'quiet');
    assert.equal(reply.status, 200);
    assert.equal(reply.body.days.length, 30);
    assert.ok(reply.body.days.every((d: { count: number }) => d.count === 0));
  });

  it("answers 400 without a project and 404 for an unknown user or another organization's project", async () => {
    const org = await t.org();
    const project = await org.project();
    await event(org, project, 'ann', NOW);
    const missing = await activity(org, undefined, 'ann');
    assert.equal(missing.status, 400);
    assert.deepEqual(Object.keys(missing.body), ['error']);
    assert.equal((await activity(org, project, 'nobody')).status, 404);
    const stranger = await t.org();
    const foreign = await activity(stranger, project, 'ann');
    assert.equal(foreign.status, 404);
    assert.deepEqual(Object.keys(foreign.body), ['error']);
  });
});
