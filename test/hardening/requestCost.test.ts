// Every request's cost is bounded (README, "Limits on requests"): a statement time limit on the
// request pool with a clear 503 and a log line, the longest search, the most tags, the longest
// description, and connections that never finish their headers.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import net from 'node:net';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { pino } from 'pino';
import { type App, buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { type Sql, createClient } from '../../src/db/client.ts';
import { createServices } from '../../src/services.ts';
import { useTestApp } from '../helpers.ts';

const t = useTestApp();

describe('limits on what one request may ask for', () => {
  it('a search of at most 200 characters is answered; a longer one is 400 on the feed and the users list', async () => {
    const org = await t.org();
    const project = await org.project();
    for (const url of ['/api/events', '/api/users']) {
      const allowed = await org.get(`${url}?project=${project}&search=${encodeURIComponent('_'.repeat(200))}`);
      assert.equal(allowed.status, 200, url);
      const emoji = await org.get(`${url}?project=${project}&search=${encodeURIComponent('😀'.repeat(200))}`);
      assert.equal(emoji.status, 200, `${url}: characters, not UTF-16 units`);
      const tooLong = await org.get(`${url}?project=${project}&search=${encodeURIComponent('_'.repeat(201))}`);
      assert.equal(tooLong.status, 400, url);
      assert.match(tooLong.body.error, /search must NOT have more than 200 characters/);
    }
  });

  it('an event holds at most 100 tags, on the API, the LogSnag route and an import', async () => {
    const org = await t.org();
    const project = await org.project();
    const tags = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, i) => [`k${i}`, i]));
    assert.equal((await org.post('/api/events', { project, category: 'c', title: 'ok', tags: tags(100) })).status, 201);
    const refused = await org.post('/api/events', { project, category: 'c', title: 'too many', tags: tags(101) });
    assert.equal(refused.status, 400);
    assert.equal(refused.body.error, 'tags may hold at most 100 keys');
    const logsnag = await org.post('/v1/log', { project, channel: 'c', event: 'too many', tags: tags(101) });
    assert.equal(logsnag.status, 400);
    const imported = await org.post('/api/import', { version: 1, projects: [{ name: 'Imported', events: [{ category: 'c', title: 't', tags: tags(101) }] }] });
    assert.equal(imported.status, 400);
    const feed = await org.get(`/api/events?project=${project}`);
    assert.deepEqual(
      feed.body.events.map((event: { title: string }) => event.title),
      ['ok'],
    );
  });

  it('a description holds at most 65,536 characters', async () => {
    const org = await t.org();
    const project = await org.project();
    assert.equal((await org.post('/api/events', { project, category: 'c', title: 'ok', description: '**['.repeat(21_845) + 'x' })).status, 201);
    const refused = await org.post('/api/events', { project, category: 'c', title: 'long', description: 'x'.repeat(65_537) });
    assert.equal(refused.status, 400);
    assert.equal(refused.body.error, 'description must be at most 65536 characters');
  });
});

describe('the statement time limit of the request pool', () => {
  const limitMs = 300;
  let requestSql: Sql;
  let app: App;
  let close: () => Promise<void>;
  const logLines: Array<{ level: number; msg: string; route?: string }> = [];

  before(async () => {
    const config = loadConfig({ ...process.env, DATABASE_URL: t.databaseUrl });
    requestSql = createClient(t.databaseUrl, { max: 4, timeZone: config.timeZone, statementTimeoutMs: limitMs });
    const log = pino(
      { level: 'warn' },
      new Writable({
        write(chunk: Buffer, _encoding, done) {
          for (const line of chunk.toString().split('\n').filter(Boolean)) logLines.push(JSON.parse(line) as (typeof logLines)[number]);
          done();
        },
      }),
    );
    const built = await createServices(config, requestSql, log, { listen: false, backgroundSql: t.services.sql });
    app = await buildApp({ services: built.services });
    await app.ready();
    close = async () => {
      await app.close();
      await built.close();
      await requestSql.end({ timeout: 5 });
    };
  });
  after(async () => await close?.());

  it('a statement that runs past the limit is a 503 that says so, with a log line; the next request is answered', async () => {
    const org = await t.org();
    const project = await org.project('Locked');
    const started = Date.now();
    // Another transaction holds the project's row: the rename waits for it until the limit cancels it.
    const reply = await t.services.sql.begin(async (tx) => {
      await tx`SELECT id FROM projects WHERE organization_id = ${org.id} AND id = ${project} FOR UPDATE`;
      return app.inject({
        method: 'PATCH',
        url: `/api/projects/${project}`,
        headers: { authorization: `Bearer ${org.key}`, 'content-type': 'application/json' },
        payload: JSON.stringify({ name: 'Renamed' }),
      });
    });
    const elapsed = Date.now() - started;
    assert.equal(reply.statusCode, 503, reply.body);
    assert.match(JSON.parse(reply.body).error, /took longer than .* and was stopped/);
    assert.ok(elapsed < limitMs + 3000, `answered after ${elapsed} ms`);
    const line = logLines.find((entry) => entry.msg === 'a statement of the request ran into the time limit');
    assert.ok(line, JSON.stringify(logLines));
    assert.equal(line.level, 40);
    assert.equal(line.route, '/api/projects/:projectId');
    // The database was not marked down, and the project kept its name.
    const projects = await app.inject({ method: 'GET', url: '/api/projects', headers: { authorization: `Bearer ${org.key}` } });
    assert.equal(projects.statusCode, 200);
    assert.deepEqual(
      JSON.parse(projects.body).map((p: { name: string }) => p.name),
      ['Locked'],
    );
  });

  it('an import and an export run past the limit: their length grows with the document by design', async () => {
    const org = await t.org();
    const events = Array.from({ length: 30_000 }, (_, i) => ({ category: `c${i % 7}`, title: `event ${i}`, description: 'x'.repeat(300), tags: { i } }));
    const headers = { authorization: `Bearer ${org.key}`, 'content-type': 'application/json' };
    const started = Date.now();
    const imported = await app.inject({
      method: 'POST',
      url: '/api/import',
      headers,
      payload: JSON.stringify({ version: 1, projects: [{ name: 'Big', events }] }),
    });
    assert.equal(imported.statusCode, 200, imported.body);
    assert.ok(Date.now() - started > limitMs, 'the import took longer than the limit');
    const exported = await app.inject({ method: 'GET', url: '/api/export', headers: { authorization: headers.authorization } });
    assert.equal(exported.statusCode, 200);
    assert.equal(JSON.parse(exported.body).projects[0].events.length, 30_000);
  });
});

describe('connections that never finish their headers', () => {
  let port = 0;
  before(async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    port = address && typeof address === 'object' ? address.port : 0;
  });

  /** Milliseconds until the server closes a connection that sent `text` and then nothing. */
  async function closedAfter(text: string): Promise<{ ms: number; response: string }> {
    const socket = net.connect(port, '127.0.0.1');
    await once(socket, 'connect');
    const started = Date.now();
    let response = '';
    socket.setEncoding('utf8').on('data', (chunk: string) => (response += chunk));
    socket.on('error', () => {});
    if (text) socket.write(text);
    await once(socket, 'close');
    return { ms: Date.now() - started, response };
  }

  it('are closed about 10 s after they open, silent ones and half-sent headers alike', async () => {
    const [silent, halfSent] = await Promise.all([closedAfter(''), closedAfter('GET /api/projects HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ')]);
    for (const { ms } of [silent, halfSent]) assert.ok(ms >= 9000 && ms < 13_000, `closed after ${ms} ms`);
    assert.match(halfSent.response, /^HTTP\/1\.1 408/);
  });
});
