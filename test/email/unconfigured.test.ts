// Without SMTP_URL (extensions.md, "Email"): a request that needs email answers 400 saying so;
// everything else works as before.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { signInAs, uniqueEmail } from '../signedIn.ts';
import { useTestApp } from '../helpers.ts';
import { accept, invite, tokenOf } from '../members/support.ts';

const t = useTestApp({ SMTP_URL: '' });

describe('without SMTP_URL', () => {
  it('an email destination is 400 (created, or a webhook patched to mailto:); webhooks still work', async () => {
    const org = await t.org();
    const project = await org.project();
    const refused = await org.post(`/api/projects/${project}/destinations`, { name: 'm', url: 'mailto:a@example.com' });
    assert.equal(refused.status, 400);
    assert.match(refused.body.error, /not configured/i);
    const explicit = await org.post(`/api/projects/${project}/destinations`, { name: 'm', url: 'mailto:a@example.com', format: 'email' });
    assert.equal(explicit.status, 400);
    const hook = await org.post(`/api/projects/${project}/destinations`, { name: 'w', url: 'https://example.com/hook', format: 'json' });
    assert.equal(hook.status, 201);
    assert.equal((await org.get(`/api/projects/${project}/destinations`)).body.length, 1);
  });

  it('a password reset is 400', async () => {
    const reply = await t.request({ method: 'POST', url: '/api/password-reset', body: { email: uniqueEmail() } });
    assert.equal(reply.status, 400);
    assert.match(reply.body.error, /not configured/i);
  });

  it('digests: reading works, setting one and sending a preview are 400', async () => {
    const org = await t.org();
    const member = await signInAs(t, org);
    assert.equal((await member.get('/api/me/digest')).status, 200);
    const put = await t.request({
      method: 'PUT',
      url: '/api/me/digest',
      body: { frequency: 'daily', hour: 8, timeZone: 'UTC' },
      headers: { cookie: member.cookie, 'x-csrf-token': member.csrfToken },
    });
    assert.equal(put.status, 400);
    assert.match(put.body.error, /not configured/i);
    const send = await member.post('/api/me/digest/send');
    assert.equal(send.status, 400);
  });

  it('invitations work, with emailed: false', async () => {
    const org = await t.org();
    const owner = await signInAs(t, org);
    const reply = await invite(owner, uniqueEmail(), 'member');
    assert.equal(reply.status, 201);
    assert.equal(reply.body.emailed, false);
    assert.equal((await accept(t, tokenOf(reply.body.url))).status, 200);
  });
});
