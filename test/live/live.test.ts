import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { before, describe, it } from 'node:test';
import { type App, buildApp } from '../../src/app.ts';
import type { Announcement } from '../../src/db/bus.ts';
import { useTestApp } from '../helpers.ts';
import { signInAs } from '../signedIn.ts';
import { waitUntil } from '../wait.ts';

const t = useTestApp();
let base = '';

interface SseMessage {
  event: string | undefined;
  data: string;
}

/** A real streaming client over the loopback: what a browser's EventSource reads. */
async function openStream(origin: string, path: string, headers: Record<string, string>) {
  const abort = new AbortController();
  const response = await fetch(`${origin}${path}`, { headers, signal: abort.signal });
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let ended = false;
  const pump = (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
      }
    } catch {
      // aborted by the test
    }
    ended = true;
  })();

  const messages = (): SseMessage[] =>
    buffer
      .split('\n\n')
      .slice(0, -1)
      .filter((block) => block.split('\n').some((line) => line.startsWith('data: ')))
      .map((block) => {
        const lines = block.split('\n');
        return {
          event: lines.find((l) => l.startsWith('event: '))?.slice(7),
          data: lines.find((l) => l.startsWith('data: '))!.slice(6),
        };
      });

  /** A failed wait shows the stream so far: what arrived instead. */
  const onStream = <T>(check: () => T, what: string) =>
    waitUntil(check, { timeoutMs: 5000, intervalMs: 10, message: what }).catch((error: Error) => {
      throw new Error(`${error.message}; stream so far: ${JSON.stringify(buffer)}`);
    });

  return {
    response,
    raw: () => buffer,
    messages,
    get ended() {
      return ended;
    },
    next: (predicate: (m: SseMessage) => boolean, what = 'a message') => onStream(() => messages().find(predicate), what),
    /** The stream has started: the server writes this line once it is subscribed. */
    started: () => onStream(() => buffer.includes('retry: 3000\n\n'), 'the retry line'),
    untilEnded: (what = 'the stream to end') => onStream(() => ended, what),
    close: async () => {
      abort.abort();
      await pump;
    },
  };
}

const listenerCount = () => (t.services.bus as unknown as { listeners: Set<unknown> }).listeners.size;

/** Resolves once this process has heard `count` announcements that match. */
function heard(match: (announcement: Announcement) => boolean, count: number): Promise<void> {
  let seen = 0;
  return new Promise((resolve) => {
    const unsubscribe = t.services.bus.subscribe((announcement) => {
      if (match(announcement) && ++seen === count) {
        unsubscribe();
        resolve();
      }
    });
  });
}

describe('GET /api/live', () => {
  // Inside the suite: file-level hooks of node 20 do not wait for one another.
  before(async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });

  it("streams the project's announcements to a dashboard session, and nothing else", async () => {
    const org = await t.org();
    // Announcements leave a moment after their write: the projects' own must be out before the
    // stream opens, or they would be the first messages it sees.
    const projectsAnnounced = heard((a) => a.type === 'project.created' && a.organizationId === org.id, 2);
    const browser = await signInAs(t, org);
    const [project, sibling] = [await org.project('Watched'), await org.project('Sibling')];
    const other = await t.org();
    await projectsAnnounced;
    const stream = await openStream(base, `/api/live?project=${project}`, { cookie: browser.cookie });
    assert.equal(stream.response.status, 200);
    assert.match(String(stream.response.headers.get('content-type')), /^text\/event-stream/);
    assert.equal(stream.response.headers.get('cache-control'), 'no-cache, no-transform');
    await stream.started();
    assert.match(stream.raw(), /^retry: 3000\n\n/);

    // One statement, so the notifications keep this order.
    t.services.bus.announce([
      { type: 'event.created', organizationId: org.id, projectId: sibling, id: 1 },
      { type: 'event.created', organizationId: other.id, projectId: project, id: 2 },
      { type: 'insight.upserted', organizationId: org.id, projectId: project, id: 3 },
      { type: 'project.created', organizationId: org.id, projectId: sibling },
      // A type this process does not know (a newer process in a rolling upgrade) is relayed as is.
      { type: 'something.new', organizationId: org.id, projectId: project, id: 'x' } as unknown as Announcement,
    ]);

    const insight = await stream.next((m) => m.event === 'insight.upserted');
    assert.deepEqual(JSON.parse(insight.data), { type: 'insight.upserted', organizationId: org.id, projectId: project, id: 3 });
    await stream.next((m) => m.event === 'something.new', 'an unknown type, forwarded as is');
    assert.deepEqual(
      stream.messages().map((m) => m.event),
      ['insight.upserted', 'something.new'],
    );
    await stream.close();
  });

  it('delivers a real event write, made through the API', async () => {
    const org = await t.org();
    const browser = await signInAs(t, org);
    const project = await org.project();
    const stream = await openStream(base, `/api/live?project=${project}`, { cookie: browser.cookie });
    await stream.started();
    const created = await org.post('/api/events', { project, category: 'signups', title: 'Hello' });
    assert.equal(created.status, 201);
    const message = await stream.next((m) => m.event === 'event.created', 'event.created');
    assert.deepEqual(JSON.parse(message.data), { type: 'event.created', organizationId: org.id, projectId: project, id: created.body.id });
    await stream.close();
  });

  it('accepts a bearer key too, and ends the stream when that key is revoked', async () => {
    const org = await t.org();
    const project = await org.project();
    const browser = await signInAs(t, org);
    const created = await browser.post('/api/keys');
    const stream = await openStream(base, `/api/live?project=${project}`, { authorization: `Bearer ${created.body.key}` });
    assert.equal(stream.response.status, 200);
    await stream.started();
    t.services.bus.announce({ type: 'event.created', organizationId: org.id, projectId: project, id: 7 });
    await stream.next((m) => m.event === 'event.created');
    assert.equal((await browser.post(`/api/keys/${created.body.id}/revoke`)).status, 200);
    await stream.untilEnded('the revoked key to lose its stream');
  });

  it('answers 404 JSON for a project of another organization, 400 without one, 401 without credentials', async () => {
    const [mine, theirs] = [await t.org(), await t.org()];
    const foreign = await theirs.project();
    const notFound = await mine.get(`/api/live?project=${foreign}`);
    assert.equal(notFound.status, 404);
    assert.deepEqual(Object.keys(notFound.body), ['error']);
    assert.match(String(notFound.headers['content-type']), /^application\/json/);
    assert.equal((await mine.get('/api/live?project=nosuchproject')).status, 404);
    assert.equal((await mine.get('/api/live')).status, 400);
    assert.equal((await t.request({ method: 'GET', url: `/api/live?project=${foreign}` })).status, 401);
  });

  it('unsubscribes from the bus when the client goes away', async () => {
    const org = await t.org();
    const project = await org.project();
    const before = listenerCount();
    const stream = await openStream(base, `/api/live?project=${project}`, { authorization: `Bearer ${org.key}` });
    await waitUntil(() => listenerCount() === before + 1, { intervalMs: 10, message: 'the stream to subscribe' });
    await stream.close();
    await waitUntil(() => listenerCount() === before, { intervalMs: 10, message: 'the stream to unsubscribe' });
  });

  it('does not hold up a graceful stop', async () => {
    const app: App = await buildApp({ services: t.services });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    const org = await t.org();
    const project = await org.project();
    const stream = await openStream(origin, `/api/live?project=${project}`, { authorization: `Bearer ${org.key}` });
    assert.equal(stream.response.status, 200);
    const started = Date.now();
    await app.close();
    assert.ok(Date.now() - started < 3000, `close took ${Date.now() - started} ms`);
    await stream.untilEnded();
  });
});
