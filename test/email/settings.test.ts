// SMTP_URL and SMTP_FROM (extensions.md, "Email"): parsed once; the password never shows in the
// settings as printed or serialised, in a settings error, or in a send's error.
import assert from 'node:assert/strict';
import { inspect } from 'node:util';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { Mailer } from '../../src/features/email/mailer.ts';
import { createLogger } from '../../src/logger.ts';

const SECRET = 's3cr3t-p@ss';
const url = `smtp://mailer:${encodeURIComponent(SECRET)}@smtp.example.com:2525`;

describe('SMTP settings', () => {
  it('smtp:// with user, password, host and port; smtps:// defaults to 465, smtp:// to 587', () => {
    const { smtp } = loadConfig({ SMTP_URL: url, SMTP_FROM: 'Ops <ops@example.com>' });
    assert.ok(smtp);
    assert.equal(smtp.host, 'smtp.example.com');
    assert.equal(smtp.port, 2525);
    assert.equal(smtp.secure, false);
    assert.equal(smtp.user, 'mailer');
    assert.equal(smtp.password, SECRET);
    assert.equal(smtp.from, 'Ops <ops@example.com>');
    assert.equal(loadConfig({ SMTP_URL: 'smtps://a:b@mail.example.com' }).smtp?.port, 465);
    assert.equal(loadConfig({ SMTP_URL: 'smtps://a:b@mail.example.com' }).smtp?.secure, true);
    assert.equal(loadConfig({ SMTP_URL: 'smtp://relay.local' }).smtp?.port, 587);
    assert.equal(loadConfig({ SMTP_URL: 'smtp://relay.local' }).smtp?.user, undefined);
    assert.equal(loadConfig({}).smtp, undefined);
    assert.equal(loadConfig({ SMTP_URL: 'smtp://relay.local', BASE_URL: 'https://events.example.org' }).smtp?.from, 'Eventlog <eventlog@events.example.org>');
  });

  it('the password is in no printed or serialised form of the settings', () => {
    const config = loadConfig({ SMTP_URL: url });
    assert.equal(JSON.stringify(config).includes(SECRET), false);
    assert.equal(inspect(config, { depth: 10 }).includes(SECRET), false);
    assert.equal(JSON.stringify(config).includes(encodeURIComponent(SECRET)), false);
  });

  it('a bad SMTP_URL or SMTP_FROM stops the start with a message that does not repeat the password', () => {
    for (const bad of [`http://u:${SECRET}@host`, `smtp://u:${SECRET}@`, `not a url ${SECRET}`]) {
      assert.throws(
        () => loadConfig({ SMTP_URL: bad }),
        (error: Error) => error instanceof ConfigError && !error.message.includes(SECRET),
      );
    }
    assert.throws(() => loadConfig({ SMTP_URL: url, SMTP_FROM: 'not an address' }), ConfigError);
    assert.throws(() => loadConfig({ SMTP_URL: url, SMTP_FROM: 'Evil <a@b.c>\r\nBcc: x@y.z' }), ConfigError);
  });

  it('a failed send (authentication refused) does not show the password in its error', async () => {
    const { startSmtpServer } = await import('./support.ts');
    const server = await startSmtpServer();
    try {
      const wrong = `smtp://${server.user}:${encodeURIComponent(SECRET)}@127.0.0.1:${server.port}?tls=off`;
      const mailer = new Mailer(loadConfig({ SMTP_URL: wrong }).smtp, createLogger('silent'));
      const result = await mailer.send({ to: ['a@example.com'], subject: 's', text: 't', html: '<p>t</p>' });
      mailer.close();
      assert.equal(result.status, 535);
      assert.equal(result.retryable, false);
      assert.equal(JSON.stringify(result).includes(SECRET), false);
    } finally {
      await server.close();
    }
  });
});
