// <NAME>_FILE for each secret setting (operations.md, "Container image"): the path of a file that
// holds the value, as Docker and Kubernetes secrets are mounted.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { cleanUp, embeddedEnv, jsonLine, runCli, tempDataDir } from '../storage/processes.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eventlog-secrets-'));
after(async () => {
  await cleanUp();
  fs.rmSync(dir, { recursive: true, force: true });
});

let files = 0;
/** A file holding `content`, as `docker secret` or a Kubernetes secret volume leaves it. */
function secretFile(content: string): string {
  const file = path.join(dir, `secret-${++files}`);
  fs.writeFileSync(file, content, { mode: 0o600 });
  return file;
}

const SECRET = 'tok-3f9a1c77e2';

describe('secret settings from files (<NAME>_FILE)', () => {
  it('each of DATABASE_URL, SMTP_URL, OIDC_CLIENT_SECRET and METRICS_TOKEN is read from its file, the trailing line break left out', () => {
    const config = loadConfig({
      DATABASE_URL_FILE: secretFile('postgres://eventlog:pw@db.example.com:5432/eventlog\n'),
      SMTP_URL_FILE: secretFile(`smtp://mailer:${SECRET}@smtp.example.com:2525\r\n`),
      OIDC_ISSUER: 'https://id.example.com',
      OIDC_CLIENT_ID: 'eventlog',
      OIDC_CLIENT_SECRET_FILE: secretFile(`${SECRET}\n`),
      METRICS_TOKEN_FILE: secretFile(SECRET),
    });
    assert.equal(config.databaseUrl, 'postgres://eventlog:pw@db.example.com:5432/eventlog');
    assert.equal(config.smtp?.password, SECRET);
    assert.equal(config.smtp?.port, 2525);
    assert.equal(config.oidc?.clientSecret, SECRET);
    assert.equal(config.metricsToken, SECRET);
  });

  it("keeps what the file holds besides the final line break: inner spaces are the secret's", () => {
    assert.equal(loadConfig({ METRICS_TOKEN_FILE: secretFile('two words\n\n') }).metricsToken, 'two words');
    assert.equal(
      loadConfig({ OIDC_ISSUER: 'https://id.example.com', OIDC_CLIENT_ID: 'c', OIDC_CLIENT_SECRET_FILE: secretFile('a b c\n') }).oidc?.clientSecret,
      'a b c',
    );
  });

  it('the variable and its _FILE both set is an error naming both, without the value', () => {
    const file = secretFile(`${SECRET}\n`);
    for (const name of ['DATABASE_URL', 'SMTP_URL', 'OIDC_CLIENT_SECRET', 'METRICS_TOKEN']) {
      assert.throws(
        () => loadConfig({ [name]: `postgres://x:${SECRET}@h/d`, [`${name}_FILE`]: file }),
        (error: Error) => error instanceof ConfigError && error.message.includes(`${name} and ${name}_FILE are both set`) && !error.message.includes(SECRET),
        name,
      );
    }
  });

  it('an empty variable beside its _FILE is not "both": compose files list settings with empty defaults', () => {
    assert.equal(loadConfig({ METRICS_TOKEN: '', METRICS_TOKEN_FILE: secretFile(SECRET) }).metricsToken, SECRET);
    assert.equal(loadConfig({ METRICS_TOKEN: 'direct', METRICS_TOKEN_FILE: '' }).metricsToken, 'direct');
  });

  it('a missing, unreadable or empty file stops the start with a message naming the setting and the path', () => {
    const missing = path.join(dir, 'no-such-secret');
    assert.throws(
      () => loadConfig({ DATABASE_URL_FILE: missing }),
      (error: Error) => error instanceof ConfigError && error.message === `DATABASE_URL_FILE: cannot read ${JSON.stringify(missing)} (ENOENT)`,
    );
    assert.throws(
      () => loadConfig({ METRICS_TOKEN_FILE: dir }),
      (error: Error) => error instanceof ConfigError && /^METRICS_TOKEN_FILE: cannot read .* \(EISDIR\)$/.test(error.message),
    );
    const empty = secretFile('\n');
    assert.throws(
      () => loadConfig({ SMTP_URL_FILE: empty }),
      (error: Error) => error instanceof ConfigError && error.message === `SMTP_URL_FILE: ${JSON.stringify(empty)} is empty`,
    );
  });

  it('the value from a file is checked like the variable: a bad DATABASE_URL is refused', () => {
    assert.throws(() => loadConfig({ DATABASE_URL_FILE: secretFile('mysql://x\n') }), /DATABASE_URL must start with postgres/);
  });

  it(
    'the command line reads them too: a command finds its database through DATABASE_URL_FILE',
    { skip: !process.env.DATABASE_URL && 'the runner sets DATABASE_URL' },
    async () => {
      const env = embeddedEnv(tempDataDir('secret-file'), { DATABASE_URL_FILE: secretFile(`${process.env.DATABASE_URL}\n`) });
      const org = jsonLine(await runCli(['org', 'create', 'From a secret file'], env));
      assert.equal(org.name, 'From a secret file');
      const both = await runCli(['org', 'create', 'Both'], { ...env, DATABASE_URL: String(process.env.DATABASE_URL) });
      assert.equal(both.code, 1);
      assert.match(both.stderr, /DATABASE_URL and DATABASE_URL_FILE are both set/);
    },
  );
});
