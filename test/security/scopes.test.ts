/** The shared security suite, for API key scopes: it walks every route (routeSuite.ts holds the fixtures). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createKey } from '../../src/features/keys/createKey.ts';
import {
  useRouteSuite,
  type Route,
  routeKey,
  routes,
  isApiPath,
  authenticatedApiRoutes,
  type Credential,
  assertErrorBody,
  type Side,
  newSide,
  resource,
  type Scope,
  scopeOf,
  requestNaming,
  call,
  inputCount,
} from './routeSuite.ts';

const t = useRouteSuite();

describe('API key scopes of every route (extensions.md, "Scoped API keys")', () => {
  /** The routes an `ingest` key may use, as the contract lists them; every /v1/ route besides. */
  const INGEST_ROUTES = new Set([
    'POST /api/events',
    'POST /api/events/batch',
    'POST /api/identify',
    'POST /api/insight',
    'PATCH /api/insight',
    'POST /api/group',
  ]);
  const ingestMayUse = (route: Route) => INGEST_ROUTES.has(routeKey(route)) || route.url.startsWith('/v1/');
  /** GET routes the contract keeps from read keys: the audit log is for owners and full keys. */
  const FULL_KEYS_ONLY = new Set(['GET /api/audit']);
  /** Routes that name no project and that a key limited to some projects may still use (they show no project's records). */
  const LIMITED_MAY_USE = new Set([
    'GET /api/organization',
    'GET /api/push/vapid-public-key',
    'GET /api/projects',
    'GET /api/projects/activity',
    'GET /api/export',
  ]);

  async function scopedKey(side: Side, input: { projects?: string[]; access?: 'ingest' | 'read' }): Promise<Credential> {
    return { key: (await createKey({ ctx: side.org.ctx, input })).key };
  }

  /** Another project of the side's organization, with resources of its own. */
  const sameOrganization = (side: Side): Side => ({ org: side.org, mark: `${side.mark}-other`, made: new Map(), session: side.session });

  const limitedRoutes = async () => {
    const found: Array<{ route: Route; scope: Scope }> = [];
    for (const route of authenticatedApiRoutes()) found.push({ route, scope: await scopeOf(route) });
    return found;
  };

  it('every authenticated route declares its scope (config.scope, src/http/routeScope.ts)', () => {
    const undeclared = routes()
      .filter((r) => isApiPath(r.url) && !r.public && !t.app.routeTable.find((e) => routeKey(e) === routeKey(r))?.scope)
      .map(routeKey);
    assert.deepEqual(
      undeclared,
      [],
      'Declare `config: { scope: { access, project } }` on these routes (docs/architecture.md, "Where a new thing goes"); until then every limited key is refused them',
    );
  });

  for (const access of ['read', 'ingest'] as const) {
    it(`a${access === 'ingest' ? 'n' : ''} ${access} key gets exactly what the contract allows on every route`, async (tc) => {
      // One organization for every route: what the key may do (read, create) destroys no fixture,
      // and what it may not do must change nothing.
      const side = await newSide('own');
      for (const { route, scope } of await limitedRoutes()) {
        await tc.test(routeKey(route), { skip: scope.problem ?? scope.pending }, async () => {
          const request = await requestNaming(route, scope, Array(Math.max(1, inputCount(scope))).fill(side));
          const reply = await call(route, scope, await scopedKey(side, { access }), request);
          const allowed = access === 'read' ? route.method === 'GET' && !FULL_KEYS_ONLY.has(routeKey(route)) : ingestMayUse(route);
          if (scope.plan.credential === 'session') {
            assert.ok([401, 403].includes(reply.status), `a route for people only: expected 403 (or 401), got ${reply.status}`);
          } else if (!allowed) {
            assert.equal(reply.status, 403, `expected 403, got ${reply.status} ${JSON.stringify(reply.body)}`);
            assertErrorBody(reply, `a ${access} key`);
          } else {
            assert.ok(reply.status < 400, `the contract allows it: expected success, got ${reply.status} ${JSON.stringify(reply.body)}`);
          }
        });
      }
    });
  }

  it("a key limited to some projects meets another project's records as another organization's (404), and its own as usual", async (tc) => {
    // Routes share one organization, except those that delete or switch off what they name.
    const shared = await newSide('own');
    const sharedOther = sameOrganization(shared);
    const destroys = (route: Route) => /\/(delete|disable|pause)$/.test(route.url);
    for (const { route, scope } of await limitedRoutes()) {
      await tc.test(routeKey(route), { skip: scope.problem ?? scope.pending }, async () => {
        const side = destroys(route) ? await newSide('own') : shared;
        const other = destroys(route) ? sameOrganization(side) : sharedOther;
        const limited = await scopedKey(side, { projects: [await resource(side, 'project')] });
        const namesProject = inputCount(scope) > 0 && (scope.plan.project !== undefined || scope.params.some((p) => p.kind !== 'key' && p.kind !== 'member'));
        if (scope.plan.credential === 'session') {
          const reply = await call(route, scope, limited, await requestNaming(route, scope, Array(Math.max(1, inputCount(scope))).fill(side)));
          assert.ok([401, 403].includes(reply.status), `a route for people only: expected 403 (or 401), got ${reply.status}`);
          return;
        }
        if (namesProject) {
          const theirs = await call(route, scope, limited, await requestNaming(route, scope, Array(Math.max(1, inputCount(scope))).fill(other)));
          assert.equal(theirs.status, 404, `another project's record: expected 404, got ${theirs.status} ${JSON.stringify(theirs.body)}`);
          assertErrorBody(theirs, 'another project', { itemIndex: scope.plan.itemIndex });
          const own = await call(route, scope, limited, await requestNaming(route, scope, Array(Math.max(1, inputCount(scope))).fill(side)));
          assert.ok(own.status < 400, `its own project: expected success, got ${own.status} ${JSON.stringify(own.body)}`);
          return;
        }
        await resource(other, 'project');
        const reply = await call(route, scope, limited, await requestNaming(route, scope, [side]));
        if (!LIMITED_MAY_USE.has(routeKey(route))) {
          assert.equal(reply.status, 403, `an action over the whole organization: expected 403, got ${reply.status} ${JSON.stringify(reply.body)}`);
          assertErrorBody(reply, 'a key limited to some projects');
          return;
        }
        assert.ok(reply.status < 400, `expected success, got ${reply.status} ${JSON.stringify(reply.body)}`);
        const text = typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body);
        assert.equal(text.includes(await resource(other, 'project')), false, 'the reply shows a project the key is not limited to');
        if (routeKey(route) === 'GET /api/projects')
          assert.deepEqual(
            reply.body.map((p: { id: string }) => p.id),
            [await resource(side, 'project')],
          );
        if (routeKey(route) === 'GET /api/projects/activity')
          assert.deepEqual(
            reply.body.map((p: { projectId: string }) => p.projectId),
            [await resource(side, 'project')],
          );
      });
    }
  });
});
