import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { type Reply, type TestOrg, useTestApp } from '../helpers.ts';

const t = useTestApp();

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}.json`, import.meta.url), 'utf8');

async function setup(template?: string): Promise<{ org: TestOrg; project: string; path: string }> {
  const org = await t.org();
  const project = await org.project();
  const hook = await org.post(`/api/projects/${project}/hooks`, { name: 'hook', category: 'ops', ...(template ? { template } : {}) });
  assert.equal(hook.status, 201, JSON.stringify(hook.body));
  return { org, project, path: new URL(hook.body.url).pathname };
}

function send(url: string, body: string, headers: Record<string, string> = {}): Promise<Reply> {
  return t.request({ method: 'POST', url, payload: body, headers: { 'content-type': 'application/json', ...headers } });
}

const github = (event: string) => ({ 'x-github-event': event, 'x-github-delivery': '72d3162e-cc78-11e3-81ab-4c9367dc0958' });

describe('GitHub template', () => {
  it('a pull request: event, action, repository and actor in the title, a link to it, tags', async () => {
    const { path } = await setup();
    const reply = await send(`${path}?template=github`, fixture('github-pull_request'), github('pull_request'));
    assert.equal(reply.status, 201, JSON.stringify(reply.body));
    assert.equal(reply.body.title, 'pull_request opened in acme/shop by octocat');
    assert.equal(reply.body.description, '#42 Checkout: retry card payments once');
    assert.equal(reply.body.url, 'https://github.com/acme/shop/pull/42');
    assert.deepEqual(reply.body.tags, { event: 'pull_request', action: 'opened', repository: 'acme/shop', status: 'open', branch: 'main' });
    assert.equal(reply.body.category, 'ops', "the hook's category");
    assert.equal(reply.body.notify, false);
  });

  it('a push lists its commits and links the compare view; the form encoding GitHub offers works too', async () => {
    const { path } = await setup();
    const body = `payload=${encodeURIComponent(fixture('github-push'))}`;
    const reply = await send(`${path}?template=github`, body, { ...github('push'), 'content-type': 'application/x-www-form-urlencoded' });
    assert.equal(reply.status, 201, JSON.stringify(reply.body));
    assert.equal(reply.body.title, 'push in acme/shop by octocat');
    assert.equal(reply.body.description, '2 commits to main\n- 6dcb09b Retry card payments once\n- 0d1a26e Test the retry');
    assert.equal(reply.body.url, 'https://github.com/acme/shop/compare/9049f1265b7d...0d1a26e67d8f');
    assert.equal(reply.body.tags.branch, 'main');
  });

  it('ping says the hook is connected', async () => {
    const { path } = await setup('github');
    const reply = await send(path, fixture('github-ping'), github('ping'));
    assert.equal(reply.status, 201, JSON.stringify(reply.body));
    assert.equal(reply.body.title, 'GitHub webhook connected: acme/shop');
    assert.match(reply.body.description, /Design for failure\.\nEvents: push, pull_request, workflow_run/);
    assert.equal(reply.body.url, 'https://github.com/acme/shop');
  });

  it('a failed workflow run notifies and links the run', async () => {
    const { path } = await setup('github');
    const reply = await send(path, fixture('github-workflow_run'), github('workflow_run'));
    assert.equal(reply.status, 201, JSON.stringify(reply.body));
    assert.equal(reply.body.title, 'workflow_run completed in acme/shop by octocat');
    assert.equal(reply.body.url, 'https://github.com/acme/shop/actions/runs/30433642');
    assert.equal(reply.body.tags.status, 'failure');
    assert.equal(reply.body.notify, true);
  });

  it('without the X-GitHub-Event header the body cannot be read: 400, nothing created', async () => {
    const { org, project, path } = await setup('github');
    const reply = await send(path, fixture('github-push'));
    assert.equal(reply.status, 400);
    assert.match(reply.body.error, /X-GitHub-Event/);
    assert.equal((await org.get(`/api/events?project=${project}`)).body.events.length, 0);
  });
});

describe('Grafana and Alertmanager templates', () => {
  it('Grafana: a firing group notifies, names the common alert and links the panel', async () => {
    const { path } = await setup();
    const reply = await send(`${path}?template=grafana`, fixture('grafana-firing'));
    assert.equal(reply.status, 201, JSON.stringify(reply.body));
    assert.equal(reply.body.title, 'Firing: High memory usage (2 of 2 firing)');
    assert.equal(reply.body.notify, true);
    assert.equal(reply.body.url, 'https://grafana.example.com/d/node-exporter?orgId=1&viewPanel=12');
    assert.deepEqual(reply.body.tags, { alertname: 'High memory usage', grafana_folder: 'Infrastructure', team: 'platform', status: 'firing' });
    assert.match(
      reply.body.description,
      /\[firing\] High memory usage \(grafana_folder=Infrastructure, team=platform, zone=eu-1\): web-1 is running out of memory/,
    );
  });

  it('Alertmanager: a resolved alert does not notify; a group notifies when any alert fires', async () => {
    const { path } = await setup('alertmanager');
    const resolved = await send(path, fixture('alertmanager-resolved'));
    assert.equal(resolved.status, 201, JSON.stringify(resolved.body));
    assert.equal(resolved.body.title, 'Resolved: ProbeFailure');
    assert.equal(resolved.body.notify, false);
    assert.equal(resolved.body.description, 'Blackbox probe failure: https://shop.example.org');
    assert.equal(resolved.body.tags.status, 'resolved');
    assert.equal(resolved.body.tags.severity, 'critical');
    assert.equal(resolved.body.url, 'http://prometheus.example.org:9090/graph?g0.expr=probe_success+%3D%3D+0&g0.tab=1');

    const firing = await send(path, fixture('alertmanager-firing'));
    assert.equal(firing.body.title, 'Firing: ProbeFailure (1 of 2 firing)');
    assert.equal(firing.body.notify, true);
  });

  it("headers and query overrides win, each replacing its whole field; ?template= beats the hook's own", async () => {
    const { path } = await setup('github');
    const reply = await send(`${path}?template=alertmanager&notify=0&category=alerts`, fixture('alertmanager-firing'), { tags: 'team=sre' });
    assert.equal(reply.status, 201, JSON.stringify(reply.body));
    assert.equal(reply.body.title, 'Firing: ProbeFailure (1 of 2 firing)');
    assert.equal(reply.body.notify, false);
    assert.equal(reply.body.category, 'alerts');
    assert.deepEqual(reply.body.tags, { team: 'sre' });
  });

  it('unknown or upper-case template names and unreadable bodies are 400', async () => {
    const { org, project, path } = await setup();
    for (const [url, body] of [
      [`${path}?template=GitHub`, fixture('github-push')],
      [`${path}?template=jira`, '{}'],
      [`${path}?template=grafana`, '{"status":"firing"}'],
      [`${path}?template=alertmanager`, 'not json'],
      [`${path}?template=alertmanager`, '[1]'],
    ] as const) {
      const reply = await send(url, body);
      assert.equal(reply.status, 400, url);
      assert.ok(reply.body.error);
    }
    assert.equal((await org.get(`/api/events?project=${project}`)).body.events.length, 0);
    const refused = await org.post(`/api/projects/${project}/hooks`, { name: 'h', category: 'c', template: 'nagios' });
    assert.equal(refused.status, 400);
    const shown = await org.post(`/api/projects/${project}/hooks`, { name: 'h', category: 'c', template: 'grafana' });
    assert.equal(shown.body.template, 'grafana');
  });
});

describe('docs/integrations.md "Templates" recipes', () => {
  const doc = readFileSync(new URL('../../docs/integrations.md', import.meta.url), 'utf8');
  const section = doc.slice(doc.indexOf('## Templates'));
  const recipeUrls = [...section.matchAll(/https:\/\/eventlog\.example\.com\/hook\/whk_[A-Za-z0-9_]+(\?[^\s'"`)]*)/g)].map((m) => m[1] ?? '');

  it('each recipe URL works as written with its service payload', async () => {
    assert.ok(section.startsWith('## Templates'), 'the section exists');
    const samples: Record<string, [string, Record<string, string>]> = {
      github: ['github-pull_request', github('pull_request')],
      grafana: ['grafana-firing', {}],
      alertmanager: ['alertmanager-firing', {}],
    };
    const seen = new Set<string>();
    for (const query of recipeUrls) {
      const template = new URLSearchParams(query).get('template') ?? '';
      const sample = samples[template];
      assert.ok(sample, `a recipe uses ?template=${template}`);
      seen.add(template);
      const { path } = await setup();
      const reply = await send(`${path}${query}`, fixture(sample[0]), sample[1]);
      assert.equal(reply.status, 201, `${query}: ${JSON.stringify(reply.body)}`);
    }
    assert.deepEqual([...seen].sort(), ['alertmanager', 'github', 'grafana']);
  });
});
