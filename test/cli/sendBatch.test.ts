import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { SendUsageError, prepareSend, send } from '../../src/cli/send.ts';
import { listen } from '../client/support.ts';
import { type TestOrg, useTestApp } from '../helpers.ts';
import { type CliResult, jsonLine, runCli } from '../storage/processes.ts';
import { assertFailed } from './support.ts';

/** `eventlog send --batch FILE|-` (extensions.md, "Batch ingestion"). */
const t = useTestApp();
const server = listen(t);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eventlog-send-batch-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));

async function stored(org: TestOrg, project: string) {
  return (await org.get(`/api/events?project=${project}&limit=100`)).body.events as Array<Record<string, unknown>>;
}

const line = (event: Record<string, unknown>) => JSON.stringify(event);

describe('eventlog send --batch', () => {
  const runs: Record<string, { org: TestOrg; project: string; result: CliResult }> = {};
  before(async () => {
    const url = await server.url();
    const start = async (name: string, args: (project: string, file: string) => string[], lines: (project: string) => string, stdin?: boolean) => {
      const org = await t.org();
      const project = await org.project('Jobs');
      const file = path.join(dir, `${name.replace(/\W/g, '-')}.ndjson`);
      fs.writeFileSync(file, lines(project));
      const env = { PATH: process.env.PATH, HOME: process.env.HOME, EVENTLOG_URL: url, EVENTLOG_KEY: org.key };
      runs[name] = { org, project, result: await runCli(['send', ...args(project, file)], env, stdin ? lines(project) : undefined) };
    };
    await Promise.all([
      start(
        'file',
        (_p, file) => ['--batch', file],
        (project) =>
          [line({ project, category: 'cron', title: 'one' }), '', line({ project: 'Jobs', category: 'cron', title: 'two', tags: { n: 2 } }), ''].join('\n'),
      ),
      start(
        'stdin',
        (project) => ['--batch', '-', '--project', project, '--category', 'cron'],
        () => `${line({ title: 'a' })}\r\n${line({ title: 'b', category: 'other' })}\n`,
        true,
      ),
      start(
        'refused',
        (_p, file) => ['--batch', file],
        (project) => [line({ project, category: 'c', title: 'ok' }), '', line({ project, category: 'c', title: 7 })].join('\n'),
      ),
      start(
        'bad line',
        (_p, file) => ['--batch', file],
        (project) => [line({ project, category: 'c', title: 'ok' }), '{"title": "broken"'].join('\n'),
      ),
    ]);
  });

  it('creates every line of the file in one request and prints {events}', async () => {
    const { org, project, result } = runs.file!;
    const printed = jsonLine(result);
    assert.deepEqual(
      (printed.events as Array<{ title: string }>).map((e) => e.title),
      ['one', 'two'],
    );
    assert.deepEqual(
      (await stored(org, project)).map((e) => e.title),
      ['two', 'one'],
    );
  });

  it('reads standard input with -, --project and --category filling what a line leaves out', async () => {
    const { org, project, result } = runs.stdin!;
    assert.equal(result.code, 0, result.stderr);
    const events = (await stored(org, project)).map((e) => [e.title, e.category]);
    assert.deepEqual(events, [
      ['b', 'other'],
      ['a', 'cron'],
    ]);
  });

  it('names the line of an item the server refuses, exit 1, nothing written', async () => {
    const { org, project, result } = runs.refused!;
    assertFailed(result, 1, /^eventlog: line 3: .*title/);
    assert.deepEqual(await stored(org, project), []);
  });

  it('names a line that is not a JSON object, exit 2, before sending anything', async () => {
    const { org, project, result } = runs['bad line']!;
    assertFailed(result, 2, /line 2 is not JSON/);
    assert.deepEqual(await stored(org, project), []);
    const env = { EVENTLOG_KEY: 'ev_x' };
    const file = path.join(dir, 'mistakes.ndjson');
    const mistakes: Array<[string, string[], RegExp]> = [
      ['[1,2]\n', ['--batch', file], /line 1 is not a JSON object/],
      ['{}\n"x"\n', ['--batch', file], /line 2 is not a JSON object/],
      ['\n\n', ['--batch', file], /holds no events/],
      ['{}\n', ['title', '--batch', file], /no title/],
      ['{}\n', ['--batch', file, '--notify'], /--notify does not go with --batch/],
      ['{}\n', ['--batch', path.join(dir, 'missing.ndjson')], /cannot read/],
    ];
    for (const [text, args, message] of mistakes) {
      fs.writeFileSync(file, text);
      await assert.rejects(prepareSend(args, env), (error: unknown) => error instanceof SendUsageError && message.test(error.message), String(message));
    }
  });

  it('sends 1,000 events a request and names a refused line across requests', async () => {
    const org = await t.org();
    const project = await org.project();
    const file = path.join(dir, 'many.ndjson');
    fs.writeFileSync(file, Array.from({ length: 2100 }, (_, i) => line({ title: `#${i}`, ...(i === 1500 ? { created_at: -5 } : {}) })).join('\n'));
    const env = { EVENTLOG_URL: await server.url(), EVENTLOG_KEY: org.key };
    const request = await prepareSend(['--batch', file, '--project', project, '--category', 'bulk'], env);
    await assert.rejects(send(request), /^Error: line 1501: created_at .*\(the 1000 events before line 1001 were created\)$/);
    const ok = path.join(dir, 'ok.ndjson');
    fs.writeFileSync(ok, Array.from({ length: 2100 }, (_, i) => line({ title: `#${i}` })).join('\n'));
    const sent = (await send(await prepareSend(['--batch', ok, '--project', project, '--category', 'bulk'], env))) as { events: Array<{ title: string }> };
    assert.equal(sent.events.length, 2100);
    assert.equal(sent.events[2099]!.title, '#2099');
  });
});
