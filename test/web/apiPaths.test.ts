// npm test runs this file in one pass only: it reads the dashboard's sources, not a database (decision 230).
// The dashboard calls the server through the generated api.<operationId>() functions
// (web/src/generated/, decision 225), so a route whose path or schema changes fails the type check
// instead of a page. This test keeps it so: outside web/src/generated/, no string or template in
// web/src may start with `/api/`, but for the few requests a generated call cannot make, each
// allowed here by file and path and explained by a comment beside it.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import ts from 'typescript';

const ROOT = path.resolve(import.meta.dirname, '../..');
const WEB = path.join(ROOT, 'web/src');
const GENERATED = path.join(WEB, 'generated');

/** The hand-written paths that remain, by file: what a generated call cannot do. */
const EXCEPTIONS: Record<string, string[]> = {
  // Server-Sent Events, read by EventSource (and hidden from the OpenAPI document).
  'web/src/live.tsx': ['/api/live'],
  // A link the browser follows to the identity provider, not a request of the page.
  'web/src/pages/SignIn.tsx': ['/api/oidc/start'],
  // The export is downloaded as a file, the import uploaded with a progress bar (XMLHttpRequest).
  'web/src/pages/Transfer.tsx': ['/api/export', '/api/import'],
};

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return file === GENERATED ? [] : sourceFiles(file);
    return /\.tsx?$/.test(entry.name) ? [file] : [];
  });
}

/** The text each string literal and template of the file starts with, when that is an /api/ path. */
function apiPathsIn(fileName: string, text: string): string[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, fileName.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    let start: string | null = null;
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) start = node.text;
    else if (ts.isTemplateExpression(node)) start = node.head.text;
    if (start !== null && start.startsWith('/api/')) found.push(start);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** `/api/live?project=` → `/api/live`: an exception names the path, whatever query follows. */
const pathOf = (start: string) => start.replace(/[?#].*$/, '');

describe('API paths in the dashboard', () => {
  it('are written only by the generated calls, but for the listed exceptions', () => {
    const stray: string[] = [];
    for (const file of sourceFiles(WEB)) {
      const name = path.relative(ROOT, file).split(path.sep).join('/');
      const allowed = EXCEPTIONS[name] ?? [];
      for (const start of apiPathsIn(name, fs.readFileSync(file, 'utf8'))) {
        if (!allowed.includes(pathOf(start))) stray.push(`${name}: ${start}`);
      }
    }
    assert.deepEqual(stray, [], "call the generated api.<operationId>() (import * as api from '…/generated/index.ts') instead of writing the path");
  });

  it('lists only exceptions that are still there', () => {
    for (const [name, paths] of Object.entries(EXCEPTIONS)) {
      const found = apiPathsIn(name, fs.readFileSync(path.join(ROOT, name), 'utf8')).map(pathOf);
      assert.deepEqual([...new Set(found)].sort(), [...paths].sort(), `${name}: keep EXCEPTIONS in step with the file`);
    }
  });

  it('sees a path in a string, a template and a JSX attribute, not in text or after a prefix', () => {
    const text = [
      "get('/api/projects');",
      'get(`/api/events/${id}`);',
      'get(`/api/audit`);',
      'const a = <a href="/api/oidc/start">Sign in</a>;',
      'const b = <code>POST /api/identify</code>;',
      'const c = `curl ${origin}/api/events`;',
      "const d = 'see /api/events';",
    ].join('\n');
    assert.deepEqual(apiPathsIn('sample.tsx', text), ['/api/projects', '/api/events/', '/api/audit', '/api/oidc/start']);
  });
});
