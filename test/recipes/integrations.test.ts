import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { after, describe, it } from 'node:test';
import { listen } from '../client/support.ts';
import { type TestOrg, useTestApp } from '../helpers.ts';

// Runs the recipes of docs/integrations.md as they are written: each `<!-- recipe: name -->`
// code block, with the example server, key, project and hook replaced by this test's.

const ROOT = path.resolve(import.meta.dirname, '../..');
const t = useTestApp();
const server = listen(t);
const run = promisify(execFile);
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'eventlog-recipes-'));
after(() => fs.rmSync(scratch, { recursive: true, force: true }));

const EXAMPLE_URL = 'https://events.example.com';
const EXAMPLE_PROJECT = 'q8w7e6r5t4y3';

function recipes(): Record<string, string> {
  const text = fs.readFileSync(path.join(ROOT, 'docs/integrations.md'), 'utf8');
  return Object.fromEntries([...text.matchAll(/<!-- recipe: (\S+) -->\n```\w*\n([\s\S]*?)\n```/g)].map((match) => [match[1]!, match[2]!]));
}

function recipe(name: string): string {
  const body = recipes()[name];
  assert.ok(body, `docs/integrations.md has no "${name}" recipe`);
  return body;
}

async function setup(): Promise<{ org: TestOrg; project: string; url: string; fill: (text: string) => string }> {
  const org = await t.org();
  const project = await org.project();
  const url = await server.url();
  const fill = (text: string) =>
    text
      .replaceAll(EXAMPLE_URL, url)
      .replaceAll(EXAMPLE_PROJECT, project)
      .replace(/ev_[a-z0-9-]{36}/g, org.key);
  return { org, project, url, fill };
}

async function events(org: TestOrg, project: string) {
  return (await org.get(`/api/events?project=${project}`)).body.events as Array<Record<string, unknown>>;
}

/** A directory of stand-in programs put first on PATH. */
function bin(programs: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(scratch, 'bin-'));
  for (const [name, script] of Object.entries(programs)) fs.writeFileSync(path.join(dir, name), `#!/bin/sh\n${script}\n`, { mode: 0o755 });
  return dir;
}

const baseEnv = () => ({ PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp' });

describe('docs/integrations.md recipes', () => {
  it('GitHub Actions: the step logs the deploy once, even when retried', async () => {
    const { org, project, fill } = await setup();
    const step = recipe('github-actions');
    const env: Record<string, string> = {};
    for (const match of step.matchAll(/^ {4}(\w+): (.+)$/gm)) env[match[1]!] = match[2]!;
    const expressions: Record<string, string> = { 'secrets.EVENTLOG_KEY': org.key, 'job.status': 'failure' };
    for (const [name, value] of Object.entries(env)) {
      env[name] = fill(value).replace(/\$\{\{ ([\w.]+) \}\}/g, (_, expression: string) => expressions[expression] ?? '');
    }
    const script = step.split(/^ {2}run: \|\n/m)[1]!.replace(/^ {4}/gm, '');
    const github = {
      GITHUB_RUN_ID: '123',
      GITHUB_RUN_ATTEMPT: '1',
      GITHUB_REPOSITORY: 'acme/shop',
      GITHUB_SHA: 'abc123',
      GITHUB_SERVER_URL: 'https://github.com',
    };
    for (let attempt = 0; attempt < 2; attempt++) await run('bash', ['-eo', 'pipefail', '-c', script], { env: { ...baseEnv(), ...env, ...github } });
    const stored = await events(org, project);
    assert.equal(stored.length, 1, 'the retried step created one event');
    assert.equal(stored[0]!.title, 'Deploy of acme/shop: failure');
    assert.equal(stored[0]!.notify, true);
    assert.deepEqual(stored[0]!.tags, { repo: 'acme/shop', sha: 'abc123', status: 'failure' });
    assert.equal(stored[0]!.url, 'https://github.com/acme/shop/actions/runs/123');
  });

  it('cron: the crontab line pipes the job output into eventlog send', async () => {
    const { org, project, fill } = await setup();
    const lines = fill(recipe('cron')).split('\n');
    const env: Record<string, string> = {};
    for (const line of lines.filter((l) => /^\w+=/.test(l))) env[line.slice(0, line.indexOf('='))] = line.slice(line.indexOf('=') + 1);
    const job = lines.find((line) => /^[\d*]/.test(line))!;
    const command = job.split(/\s+/).slice(5).join(' ');
    const shims = bin({
      eventlog: `exec "${process.execPath}" "${path.join(ROOT, 'bin/eventlog.js')}" "$@"`,
      df: 'echo "Filesystem  Size  Used Avail Use% Mounted on"; echo "/dev/sda1    50G   20G   30G  40% /"',
    });
    const result = await run('sh', ['-c', command], { env: { ...baseEnv(), ...env, PATH: `${shims}:${baseEnv().PATH}` } });
    const printed = JSON.parse(result.stdout);
    const stored = await events(org, project);
    assert.equal(stored.length, 1);
    assert.deepEqual(stored[0], printed);
    assert.equal(printed.title, 'Disk usage on db1');
    assert.match(printed.description, /^Filesystem[\s\S]*\/dev\/sda1.*\/$/);
    assert.deepEqual(printed.tags, { host: 'db1' });
  });

  it('Node: the app code runs with the client', async () => {
    const { org, project, url, fill } = await setup();
    const code = fill(recipe('node')).replace("'@eventlog/client'", JSON.stringify(path.join(ROOT, 'client/src/index.ts')));
    const file = path.join(scratch, 'app.mjs');
    fs.writeFileSync(file, code);
    const result = await run(process.execPath, ['--import', 'tsx', file], { cwd: ROOT, env: { ...baseEnv(), EVENTLOG_URL: url, EVENTLOG_KEY: org.key } });
    assert.equal(result.stdout, 'New user u_42\n');
    const stored = await events(org, project);
    assert.equal(stored.length, 1);
    assert.deepEqual(stored[0]!.tags, { plan: 'pro' });
    const insights = (await org.get(`/api/insights?project=${project}`)).body;
    assert.equal(insights[0].value, 'u_42');
  });

  it('Python: requests posts to /v1/log', async (context) => {
    const { org, project, url, fill } = await setup();
    const probe = await org.post('/v1/log', {});
    if (probe.status === 404 && /^Route /.test(String(probe.body?.error ?? ''))) {
      context.skip('POST /v1/log is not on this server yet (LogSnag-compatible ingestion): the recipe runs once it is');
      return;
    }
    const env: Record<string, string> = { ...baseEnv(), EVENTLOG_URL: url, EVENTLOG_KEY: org.key };
    const hasRequests = await run('python3', ['-c', 'import requests']).then(
      () => true,
      () => false,
    );
    if (!hasRequests) {
      // Not installed here: a stand-in with the one call the recipe makes, on urllib.
      const shim = fs.mkdtempSync(path.join(scratch, 'py-'));
      fs.writeFileSync(path.join(shim, 'requests.py'), PYTHON_REQUESTS_SHIM);
      env.PYTHONPATH = shim;
    }
    const file = path.join(scratch, 'log.py');
    fs.writeFileSync(file, fill(recipe('python')));
    const result = await run('python3', [file], { env });
    const stored = await events(org, project);
    assert.equal(stored.length, 1);
    assert.equal(result.stdout.trim(), String(stored[0]!.id));
    assert.equal(stored[0]!.category, 'payments');
    assert.equal(stored[0]!.title, 'New subscription');
  });

  it("systemd: the OnFailure unit posts the failed unit's status to a hook", async () => {
    const { org, project, url, fill } = await setup();
    const hook = await org.post(`/api/projects/${project}/hooks`, { name: 'systemd', category: 'failures' });
    assert.equal(hook.status, 201, JSON.stringify(hook.body));
    const hookUrl = new URL(new URL(hook.body.url).pathname, url).href;
    const unit = recipe('systemd').replace(/https:\/\/events\.example\.com\/hook\/whk_\w+/, hookUrl);
    const execStart = fill(unit).match(/^ExecStart=(.+)$/m)![1]!;
    // systemd's specifiers: %i the instance (the failed unit), %H the host name.
    const command = execStart.replaceAll('%i', 'backup.service').replaceAll('%H', 'db1');
    const shims = bin({ systemctl: 'echo "× $4 - Nightly backup"; echo "   Active: failed (Result: exit-code)"' });
    await run('sh', ['-c', command], { env: { ...baseEnv(), PATH: `${shims}:${baseEnv().PATH}` } });
    const stored = await events(org, project);
    assert.equal(stored.length, 1);
    assert.equal(stored[0]!.title, 'backup.service failed on db1');
    assert.equal(stored[0]!.category, 'failures');
    assert.equal(stored[0]!.notify, true);
    assert.deepEqual(stored[0]!.tags, { unit: 'backup.service', host: 'db1' });
    assert.match(String(stored[0]!.description), /backup\.service - Nightly backup\n\s+Active: failed/);
  });
});

const PYTHON_REQUESTS_SHIM = `
import json
import urllib.error
import urllib.request


class Response:
    def __init__(self, status, body):
        self.status_code = status
        self._body = body

    def json(self):
        return json.loads(self._body)

    def raise_for_status(self):
        if self.status_code >= 400:
            raise RuntimeError(f"HTTP {self.status_code}: {self._body}")


def post(url, headers=None, json=None, timeout=None):
    data = __import__("json").dumps(json).encode()
    request = urllib.request.Request(url, data=data, method="POST", headers={**(headers or {}), "Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as reply:
            return Response(reply.status, reply.read().decode())
    except urllib.error.HTTPError as error:
        return Response(error.code, error.read().decode())
`;
