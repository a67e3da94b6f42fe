// Security headers: the dashboard is served with a Content-Security-Policy and nosniff (the
// browser tests check the dashboard works under that policy), every reply carries nosniff, and
// /metrics takes the bearer scheme in any case, as /api does.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ensureDashboardBuilt } from '../browser/support.ts';
import { useTestApp } from '../helpers.ts';

const TOKEN = 'metrics-token-for-headers';
const t = useTestApp({ METRICS_TOKEN: TOKEN });

describe('security headers', () => {
  it('the dashboard has a Content-Security-Policy without inline script, frame-ancestors none, and nosniff', async () => {
    ensureDashboardBuilt();
    for (const url of ['/app/', '/app/projects', '/app/sw.js', '/app/manifest.webmanifest']) {
      const reply = await t.request({ method: 'GET', url });
      assert.equal(reply.status, 200, url);
      assert.equal(reply.headers['x-content-type-options'], 'nosniff', url);
      const csp = String(reply.headers['content-security-policy']);
      assert.match(csp, /default-src 'self'/, url);
      assert.match(csp, /script-src 'self'(;|$)/, url);
      assert.match(csp, /frame-ancestors 'none'/, url);
      assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/, url);
    }
  });

  it('API replies, errors included, carry nosniff', async () => {
    const org = await t.org();
    assert.equal((await org.get('/api/projects')).headers['x-content-type-options'], 'nosniff');
    assert.equal((await t.request({ method: 'GET', url: '/api/projects' })).headers['x-content-type-options'], 'nosniff');
    assert.equal((await t.request({ method: 'GET', url: '/nowhere' })).headers['x-content-type-options'], 'nosniff');
  });

  it('/metrics accepts the bearer scheme in any case, and still refuses a wrong token', async () => {
    for (const scheme of ['Bearer', 'bearer', 'BEARER', 'bEaReR']) {
      const reply = await t.request({ method: 'GET', url: '/metrics', headers: { authorization: `${scheme} ${TOKEN}` } });
      assert.equal(reply.status, 200, scheme);
    }
    for (const authorization of [`bearer ${TOKEN}x`, `Basic ${TOKEN}`, TOKEN, `bearer`, `bearer  `]) {
      assert.equal((await t.request({ method: 'GET', url: '/metrics', headers: { authorization } })).status, 401, authorization);
    }
  });
});
