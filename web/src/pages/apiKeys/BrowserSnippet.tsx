import { CopyButton } from '../../components/CopyButton.tsx';
import { maskSecret } from '../../components/Secret.tsx';
import type { CreatedKey, Project } from '../../types.ts';

/** The project a snippet names: the key's first, else the organization's first, else a placeholder. */
function snippetProject(key: CreatedKey, projects: Project[] | null): string {
  return key.projects?.[0] ?? projects?.[0]?.id ?? 'PROJECT_ID';
}

/** An event sent from a web page with `fetch`, to this server's address as the dashboard sees it. */
function fetchSnippet(server: string, token: string, project: string): string {
  return `await fetch('${server}/api/events', {
  method: 'POST',
  headers: {
    Authorization: 'Bearer ${token}',
    'Content-Type': 'application/json',
  },
  body: JSON.stringify({ project: '${project}', category: 'web', title: 'Signed up' }),
});`;
}

/** The same event with the client library (client/README.md). */
function clientSnippet(server: string, token: string, project: string): string {
  return `import { Eventlog } from '@eventlog/client';

const log = new Eventlog({ token: '${token}', project: '${project}', baseUrl: '${server}' });
await log.track({ category: 'web', title: 'Signed up' });`;
}

/**
 * Shown once a browser key exists: what to paste into a page on one of its origins. The key shows
 * as dots, as everywhere a secret is shown; Copy copies it whole.
 */
export function BrowserSnippet({ created, projects }: { created: CreatedKey; projects: Project[] | null }) {
  const server = window.location.origin;
  const project = snippetProject(created, projects);
  const snippets = [
    ['With fetch', 'fetch example', fetchSnippet(server, created.key, project), 'snippet-fetch'],
    ['With the client library', 'client library example', clientSnippet(server, created.key, project), 'snippet-client'],
  ] as const;
  return (
    <section className="snippets" aria-label="Send events from a web page">
      <h3>Send an event from a web page</h3>
      <p className="muted">Pages on {created.origins?.join(', ')} may use this key.</p>
      {snippets.map(([title, what, text, testId]) => (
        <div key={testId} className="snippet">
          <div className="snippet-head">
            <h4>{title}</h4>
            <CopyButton text={text} what={what} />
          </div>
          <pre className="code" data-testid={testId}>
            {maskSecret(text, created.key)}
          </pre>
        </div>
      ))}
    </section>
  );
}
