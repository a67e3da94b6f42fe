// The steps an operator takes with a new container: first-run setup through the API, a key from
// `eventlog key create` inside the container, a project, events.
import assert from 'node:assert/strict';
import { api, eventlogIn } from './support.ts';

export const OWNER = { email: 'owner@example.test', password: 'a long enough password' };

export interface Installation {
  orgId: string;
  key: string;
  projectId: string;
}

export async function setUp(baseUrl: string, container: string): Promise<Installation> {
  assert.equal((await api(baseUrl, 'GET', '/api/setup')).body.needed, true);
  const setup = await api(baseUrl, 'POST', '/api/setup', { organizationName: 'Acme', ...OWNER });
  assert.equal(setup.status, 201, JSON.stringify(setup.body));
  const orgId = String(setup.body.organization.id);
  const created = await eventlogIn(container, ['key', 'create', orgId]);
  const key = String(created.key);
  const project = await api(baseUrl, 'POST', '/api/projects', { name: 'Shop' }, { authorization: `Bearer ${key}` });
  assert.equal(project.status, 201, JSON.stringify(project.body));
  return { orgId, key, projectId: String(project.body.id) };
}

export async function sendEvent(baseUrl: string, installation: Installation, title: string): Promise<string> {
  const reply = await api(
    baseUrl,
    'POST',
    '/api/events',
    { project: installation.projectId, category: 'orders', title },
    { authorization: `Bearer ${installation.key}` },
  );
  assert.equal(reply.status, 201, JSON.stringify(reply.body));
  return String(reply.body.id);
}

/** Every event id of the project, through the keyset pages of GET /api/events. */
export async function storedEventIds(baseUrl: string, installation: Installation): Promise<Set<string>> {
  const ids = new Set<string>();
  let cursor = '';
  for (;;) {
    const page = await api(
      baseUrl,
      'GET',
      `/api/events?project=${installation.projectId}&limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      undefined,
      { authorization: `Bearer ${installation.key}` },
    );
    assert.equal(page.status, 200, JSON.stringify(page.body));
    for (const event of page.body.events) ids.add(String(event.id));
    if (!page.body.nextCursor) return ids;
    cursor = page.body.nextCursor;
  }
}

/** PostgreSQL's words for a start that had to recover from a stop that was not clean. */
export const RECOVERY = /not properly shut down|automatic recovery in progress|database system was interrupted|redo starts at/;
