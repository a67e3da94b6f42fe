import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { SendUsageError, prepareSend, send } from '../../src/cli/send.ts';
import { listen } from '../client/support.ts';
import { type TestOrg, useTestApp } from '../helpers.ts';
import { type CliResult, jsonLine, runCli } from '../storage/processes.ts';
import { assertFailed } from './support.ts';

const t = useTestApp();
const server = listen(t);

interface Case {
  org: TestOrg;
  project: string;
  result: CliResult;
}

async function stored(org: TestOrg, project: string) {
  return (await org.get(`/api/events?project=${project}`)).body.events as Array<Record<string, unknown>>;
}

describe('eventlog send', () => {
  // Starting the command is the slow part: every run starts at once, the tests then read them.
  const runs: Record<string, Case> = {};
  before(async () => {
    const url = await server.url();
    const start = async (name: string, args: (project: string) => string[], options: { key?: (org: TestOrg) => string; stdin?: string } = {}) => {
      const org = await t.org();
      const project = await org.project();
      const env = { PATH: process.env.PATH, HOME: process.env.HOME, EVENTLOG_URL: url, EVENTLOG_KEY: options.key ? options.key(org) : org.key };
      runs[name] = { org, project, result: await runCli(['send', ...args(project)], env, options.stdin) };
    };
    await Promise.all([
      start('success', (project) => [
        'Backup finished',
        '--project',
        project,
        '--category',
        'cron',
        '--icon',
        '💾',
        '--tag',
        'host=db1',
        '--tag',
        'query=a=b',
        '--notify',
        '--user',
        'ops',
        '--description',
        'All **good**',
      ]),
      start('stdin', (project) => ['Disk report', '--project', project, '--category', 'cron', '--description', '-'], { stdin: 'line one\nline two\n' }),
      start('bad project', () => ['x', '--project', 'nope', '--category', 'cron']),
      start('missing key', (project) => ['x', '--project', project, '--category', 'cron'], { key: () => '' }),
      start('usage', (project) => ['--project', project, '--category', 'cron']),
    ]);
  });

  it('creates the event and prints it', async () => {
    const { org, project, result } = runs.success!;
    const event = jsonLine(result);
    assert.equal(event.title, 'Backup finished');
    assert.equal(event.category, 'cron');
    assert.equal(event.icon, '💾');
    assert.deepEqual(event.tags, { host: 'db1', query: 'a=b' }, '--tag splits at the first =');
    assert.equal(event.notify, true);
    assert.equal(event.user_id, 'ops');
    assert.equal(event.description, 'All **good**');
    assert.deepEqual(await stored(org, project), [event]);
  });

  it('reads the description from standard input with --description -', async () => {
    const { org, project, result } = runs.stdin!;
    const event = jsonLine(result);
    assert.equal(event.description, 'line one\nline two');
    assert.equal((await stored(org, project)).length, 1);
  });

  it("answers an unknown project with the server's error and exit 1", async () => {
    const { org, project, result } = runs['bad project']!;
    assertFailed(result, 1, /^eventlog: Project not found\n$/);
    assert.equal((await stored(org, project)).length, 0);
  });

  it("refuses to run without EVENTLOG_KEY (exit 2), and a wrong key gets the server's 401 message", async () => {
    const { org, project, result } = runs['missing key']!;
    assertFailed(result, 2, /EVENTLOG_KEY is not set/);
    const request = await prepareSend(['x', '--project', project, '--category', 'cron'], { EVENTLOG_URL: await server.url(), EVENTLOG_KEY: 'ev_wrong' });
    await assert.rejects(send(request), /Missing or invalid API key/);
    assert.equal((await stored(org, project)).length, 0);
  });

  it('answers usage mistakes with exit 2 and the usage, before sending anything', async () => {
    assertFailed(runs.usage!.result, 2, /send takes one title[\s\S]*Usage: eventlog <command>/);
    const env = { EVENTLOG_KEY: 'ev_x' };
    const mistakes: Array<[string[], RegExp]> = [
      [['x', '--category', 'c'], /--project/],
      [['x', '--project', 'p'], /--category/],
      [['x', 'y', '--project', 'p', '--category', 'c'], /one title/],
      [['x', '--project', 'p', '--category', 'c', '--tag', 'novalue'], /--tag takes key=value/],
      [['x', '--project', 'p', '--category', 'c', '--tag', '=v'], /--tag takes key=value/],
      [['x', '--project', 'p', '--category', 'c', '--bogus'], /bogus/],
    ];
    for (const [args, message] of mistakes)
      await assert.rejects(prepareSend(args, env), (error: unknown) => error instanceof SendUsageError && message.test(error.message));
  });

  it('finds the server in EVENTLOG_URL, else BASE_URL, else localhost:$PORT', async () => {
    const args = ['x', '--project', 'p', '--category', 'c'];
    const key = { EVENTLOG_KEY: 'ev_x' };
    assert.equal(
      (await prepareSend(args, { ...key, EVENTLOG_URL: 'https://e.example/base', BASE_URL: 'https://b.example' })).url,
      'https://e.example/base/api/events',
    );
    assert.equal((await prepareSend(args, { ...key, BASE_URL: 'https://b.example/' })).url, 'https://b.example/api/events');
    assert.equal((await prepareSend(args, { ...key, PORT: '8080' })).url, 'http://localhost:8080/api/events');
    assert.equal((await prepareSend(args, key)).url, 'http://localhost:3000/api/events');
  });
});
