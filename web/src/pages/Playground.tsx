import { type FormEvent, useMemo, useState } from 'react';
import { Link } from 'wouter';
import { CopyButton } from '../components/CopyButton.tsx';
import { useToast } from '../components/Toasts.tsx';
import * as api from '../generated/index.ts';
import type { EventItem } from '../types.ts';
import { appPath } from '../paths.ts';
import './playground/playground.css';

interface Form {
  category: string;
  title: string;
  description: string;
  icon: string;
  tags: string;
  metadata: string;
  url: string;
  user_id: string;
  notify: boolean;
  created_at: string;
}

const INITIAL: Form = {
  category: 'signups',
  title: 'New user signed up',
  description: 'A **new** customer joined from [the landing page](https://example.com).',
  icon: '🎉',
  tags: '{"plan": "pro", "source": "landing"}',
  metadata: '',
  url: '',
  user_id: '',
  notify: false,
  created_at: '',
};

/** The request body for the form, or the reason it cannot be built. */
function buildBody(projectId: string, form: Form): { body: api.CreateEventBody } | { problem: string } {
  const body: api.CreateEventBody = { project: projectId, category: form.category, title: form.title };
  for (const field of ['description', 'icon', 'url', 'user_id'] as const) {
    if (form[field] !== '') body[field] = form[field];
  }
  if (form.tags.trim()) {
    let tags: unknown;
    try {
      tags = JSON.parse(form.tags);
    } catch {
      return { problem: 'Tags must be valid JSON, for example {"plan": "pro"}' };
    }
    if (!tags || typeof tags !== 'object' || Array.isArray(tags)) return { problem: 'Tags must be a JSON object' };
    body.tags = tags as Record<string, unknown>;
  }
  if (form.metadata.trim()) {
    try {
      // Any JSON value, as typed: the server checks its shape and says what it refuses.
      body.metadata = JSON.parse(form.metadata) as api.CreateEventBody['metadata'];
    } catch {
      return { problem: 'Metadata must be valid JSON (an object or an array)' };
    }
  }
  if (form.notify) body.notify = true;
  if (form.created_at.trim()) {
    const seconds = Number(form.created_at);
    if (!Number.isFinite(seconds)) return { problem: 'created_at must be a number of Unix seconds' };
    body.created_at = seconds;
  }
  return { body };
}

const shellQuote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

function curlCommand(body: api.CreateEventBody): string {
  return [
    `curl -X POST ${window.location.origin}/api/events`,
    `  -H "Authorization: Bearer $EVENTLOG_KEY"`,
    `  -H "Content-Type: application/json"`,
    `  -d ${shellQuote(JSON.stringify(body))}`,
  ].join(' \\\n');
}

export function PlaygroundPage({ projectId }: { projectId: string }) {
  const toast = useToast();
  const [form, setForm] = useState<Form>(INITIAL);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<EventItem | null>(null);
  const built = useMemo(() => buildBody(projectId, form), [projectId, form]);
  const problem = 'problem' in built ? built.problem : null;
  const curl = 'body' in built ? curlCommand(built.body) : null;

  const set = <K extends keyof Form>(key: K, value: Form[K]) => setForm((current) => ({ ...current, [key]: value }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    // The problem is already shown beside the form (and the button disabled): no second copy in a toast.
    if (!('body' in built)) return;
    setBusy(true);
    try {
      const created = await api.createEvent({ body: built.body });
      setResult(created);
      toast.success(`Event #${created.id} sent`);
    } catch (error) {
      toast.error(error, 'The event was not created');
    } finally {
      setBusy(false);
    }
  };

  return (
    <main className="page">
      <div className="page-head">
        <h1>Playground</h1>
        <p className="muted">
          Send a real event to this project. It shows up in the <Link href="/">feed</Link> right away.
        </p>
      </div>
      <div className="playground">
        <form className="card form-grid" onSubmit={(event) => void submit(event)} aria-label="Event">
          <label className="field">
            <span>
              Category <em className="required">required</em>
            </span>
            <input name="category" required maxLength={100} value={form.category} onChange={(e) => set('category', e.target.value)} />
          </label>
          <label className="field">
            <span>
              Title <em className="required">required</em>
            </span>
            <input name="title" required value={form.title} onChange={(e) => set('title', e.target.value)} />
          </label>
          <label className="field span-2">
            <span>Description</span>
            <textarea name="description" rows={3} value={form.description} onChange={(e) => set('description', e.target.value)} />
            <small className="muted">Supports **bold** and [link](https://…).</small>
          </label>
          <label className="field">
            <span>Icon (emoji)</span>
            <input name="icon" value={form.icon} onChange={(e) => set('icon', e.target.value)} />
          </label>
          <label className="field">
            <span>User id</span>
            <input name="user_id" value={form.user_id} onChange={(e) => set('user_id', e.target.value)} />
          </label>
          <label className="field span-2">
            <span>URL (the title links here)</span>
            <input name="url" type="url" placeholder="https://…" value={form.url} onChange={(e) => set('url', e.target.value)} />
          </label>
          <label className="field span-2">
            <span>Tags (JSON object of labels)</span>
            <textarea name="tags" rows={2} className="mono" spellCheck={false} value={form.tags} onChange={(e) => set('tags', e.target.value)} />
          </label>
          <label className="field span-2">
            <span>Metadata (JSON object or array)</span>
            <textarea
              name="metadata"
              rows={3}
              className="mono"
              spellCheck={false}
              placeholder='{"stack": "Error: …", "request": {"path": "/checkout"}}'
              value={form.metadata}
              onChange={(e) => set('metadata', e.target.value)}
            />
          </label>
          <label className="field">
            <span>created_at (Unix seconds, optional)</span>
            <input name="created_at" inputMode="numeric" placeholder="now" value={form.created_at} onChange={(e) => set('created_at', e.target.value)} />
          </label>
          <label className="toggle">
            <input type="checkbox" name="notify" checked={form.notify} onChange={(e) => set('notify', e.target.checked)} />
            <span>Notify (push and outgoing webhooks)</span>
          </label>
          {problem && (
            <p className="banner banner-error span-2" role="alert">
              {problem}
            </p>
          )}
          <div className="span-2 form-actions">
            <button type="submit" className="button button-primary" disabled={busy || problem !== null}>
              {busy ? 'Sending…' : 'Send event'}
            </button>
          </div>
        </form>
        <div className="playground-output">
          <section className="card" aria-labelledby="curl-title">
            <div className="section-head">
              <h2 id="curl-title">Same request with curl</h2>
              {curl && <CopyButton text={curl} what="curl command" />}
            </div>
            <pre className="code" data-testid="curl">
              {curl ?? '—'}
            </pre>
            <p className="muted small">
              Set <code>EVENTLOG_KEY</code> to a key from the <Link href={appPath('/api')}>API keys</Link> page.
            </p>
          </section>
          <section className="card" aria-labelledby="result-title">
            <h2 id="result-title">Response</h2>
            <pre className="code json" data-testid="playground-result">
              {result ? JSON.stringify(result, null, 2) : 'Send the event to see what the server stored.'}
            </pre>
          </section>
        </div>
      </div>
    </main>
  );
}
