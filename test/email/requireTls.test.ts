// smtp:// never sends its credentials over an unencrypted connection unless SMTP_URL says
// `?tls=off` (decision 200). Against a real SMTP server that offers no STARTTLS.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { Mailer } from '../../src/features/email/mailer.ts';
import { createLogger } from '../../src/logger.ts';
import { type SmtpTestServer, startSmtpServer } from './support.ts';

const smtp: SmtpTestServer = await startSmtpServer();
after(() => smtp.close());

const mail = { to: ['someone@example.com'], subject: 'Hello', text: 'Hello', html: '<p>Hello</p>' };

async function sendWith(url: string) {
  const mailer = new Mailer(loadConfig({ SMTP_URL: url }).smtp, createLogger('silent'));
  try {
    return await mailer.send(mail);
  } finally {
    mailer.close();
  }
}

describe('SMTP credentials and TLS', () => {
  it('smtp:// with a user requires STARTTLS: a server without it gets neither the credentials nor the mail', async () => {
    const plain = smtp.url.replace('?tls=off', '');
    const [authBefore, offeredBefore] = [smtp.authAttempts, smtp.offered];
    const result = await sendWith(plain);
    assert.notEqual(result.error, null, 'the send failed');
    assert.equal(result.retryable, false, 'a setting to fix, not a passing failure');
    assert.equal(smtp.authAttempts, authBefore, 'the credentials never went out');
    assert.equal(smtp.offered, offeredBefore, 'no mail was offered');
    assert.equal(JSON.stringify(result).includes(smtp.password), false);
  });

  it('?tls=off sends them in plain text, as asked', async () => {
    const authBefore = smtp.authAttempts;
    const result = await sendWith(smtp.url);
    assert.equal(result.error, null, String(result.error));
    assert.equal(smtp.authAttempts, authBefore + 1);
    const [received] = await smtp.waitForMailTo('someone@example.com');
    assert.equal(received?.user, smtp.user);
  });

  it('the setting: required with a user on smtp://, not for smtps:// or without a user; tls takes "off" only', () => {
    assert.equal(loadConfig({ SMTP_URL: 'smtp://u:p@mail.example.com' }).smtp?.requireTls, true);
    assert.equal(loadConfig({ SMTP_URL: 'smtp://u:p@mail.example.com?tls=off' }).smtp?.requireTls, false);
    assert.equal(loadConfig({ SMTP_URL: 'smtps://u:p@mail.example.com' }).smtp?.requireTls, false, 'TLS from the first byte already');
    assert.equal(loadConfig({ SMTP_URL: 'smtp://relay.local' }).smtp?.requireTls, false, 'no credentials to protect');
    for (const bad of ['smtp://u:secret@mail.example.com?tls=no', 'smtp://u:secret@mail.example.com?tls=']) {
      assert.throws(
        () => loadConfig({ SMTP_URL: bad }),
        (error: Error) => error instanceof ConfigError && /tls/.test(error.message) && !error.message.includes('secret'),
      );
    }
  });
});
