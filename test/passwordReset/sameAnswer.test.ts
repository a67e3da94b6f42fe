// Password reset tells nobody who has an account: the same answer at the same speed for a
// member's email and any other (decision 200), the link mailed afterwards through the durable
// mail queue. Against a real SMTP server.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { performance } from 'node:perf_hooks';
import { addUser, uniqueEmail } from '../dashboard/signedIn.ts';
import { useTestApp } from '../helpers.ts';
import { type SmtpTestServer, startSmtpServer, waitUntil } from '../email/support.ts';

const smtp: SmtpTestServer = await startSmtpServer();
after(() => smtp.close());
// The mail queue takes every organization's mail: a database of the file's own.
const t = useTestApp({ BASE_URL: 'https://events.example.test', SMTP_URL: smtp.url, TRUST_PROXY: '1' }, { ownDatabase: true });

let client = 0;
async function timedReset(email: string): Promise<number> {
  const started = performance.now();
  const reply = await t.request({ method: 'POST', url: '/api/password-reset', body: { email }, headers: { 'x-forwarded-for': `198.51.100.${++client % 250}` } });
  const elapsed = performance.now() - started;
  assert.equal(reply.status, 200, JSON.stringify(reply.body));
  assert.deepEqual(reply.body, { ok: true });
  return elapsed;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
};

describe('password reset timing', () => {
  before(() => t.services.mailQueue.start());
  it("answers a member's email and an unknown one alike and as fast; the member's link arrives by the mail queue", async (tc) => {
    const org = await t.org();
    const members: string[] = [];
    for (let i = 0; i < 6; i++) {
      const email = uniqueEmail();
      await addUser(t, org, email);
      members.push(email);
    }
    const strangers = members.map(() => uniqueEmail());
    // Warm both paths up, then alternate, so load on the machine falls on both alike.
    await timedReset(uniqueEmail());
    const memberTimes: number[] = [];
    const strangerTimes: number[] = [];
    for (let round = 0; round < 6; round++) {
      for (let i = 0; i < members.length; i++) {
        memberTimes.push(await timedReset(members[i] ?? ''));
        strangerTimes.push(await timedReset(strangers[i] ?? ''));
      }
    }
    const [memberMedian, strangerMedian] = [median(memberTimes), median(strangerTimes)];
    tc.diagnostic(`median reply: member ${memberMedian.toFixed(2)} ms, unknown ${strangerMedian.toFixed(2)} ms`);
    // Before, a member's email took ~30 ms and any other ~8 ms: a difference of ~20 ms.
    assert.ok(
      Math.abs(memberMedian - strangerMedian) < 3,
      `medians ${memberMedian.toFixed(2)} ms (member) and ${strangerMedian.toFixed(2)} ms (unknown) differ by 3 ms or more`,
    );

    for (const email of members) await smtp.waitForMailTo(email, 1, 20_000);
    const [mail] = smtp.to(members[0] ?? '');
    assert.equal(mail?.parsed.subject, 'Reset your Eventlog password');
    assert.match(mail?.parsed.text ?? '', /https:\/\/events\.example\.test\/app\/reset\/[A-Za-z0-9_-]{43}/);
    // Every member's queued mail is sent and its row gone; the unknown emails queued nothing.
    await waitUntil(async () => (await t.services.sql`SELECT 1 FROM mail_jobs`).length === 0, 20_000, 'the mail queue to empty');
    for (const email of strangers) assert.equal(smtp.to(email).length, 0, `no mail to ${email}`);
  });

  it('the mail is queued durably: a refused attempt is retried', async () => {
    const org = await t.org();
    const email = uniqueEmail();
    await addUser(t, org, email);
    smtp.answers = [{ code: 451 }, 250];
    smtp.offered = 0;
    try {
      await timedReset(email);
      const [mail] = await smtp.waitForMailTo(email, 1, 20_000);
      assert.equal(mail?.parsed.subject, 'Reset your Eventlog password');
      assert.ok(smtp.offered >= 2, 'the first attempt was refused, the second sent');
    } finally {
      smtp.answers = [250];
    }
  });
});
