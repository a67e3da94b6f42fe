import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useTestApp } from '../helpers.ts';

const t = useTestApp();

const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: unknown;
  content?: unknown;
}
interface Operation {
  parameters?: Parameter[];
  responses?: Record<string, { description?: unknown }>;
  security?: Array<Record<string, string[]>>;
  operationId?: string;
  tags?: unknown[];
}
interface Document {
  openapi: string;
  info: { title: unknown; version: unknown };
  paths: Record<string, Record<string, Operation> & { parameters?: Parameter[] }>;
  components?: { securitySchemes?: Record<string, unknown> } & Record<string, unknown>;
  security?: Array<Record<string, string[]>>;
}

const openApiPath = (url: string) => url.replace(/:([A-Za-z0-9_]+)(?:\([^)]*\))?/g, '{$1}');

async function fetchDocument(): Promise<Document> {
  const reply = await t.request({ method: 'GET', url: '/api/openapi.json' });
  assert.equal(reply.status, 200, JSON.stringify(reply.body));
  assert.match(String(reply.headers['content-type']), /^application\/json/);
  return reply.body as Document;
}

function operations(doc: Document): Array<{ path: string; method: string; operation: Operation; pathParameters: Parameter[] }> {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => METHODS.has(method))
      .map(([method, operation]) => ({ path, method, operation: operation as Operation, pathParameters: item.parameters ?? [] })),
  );
}

/** Every `$ref` in the document, as JSON pointers. */
function refs(value: unknown, found: string[] = []): string[] {
  if (Array.isArray(value)) for (const item of value) refs(item, found);
  else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (key === '$ref' && typeof item === 'string') found.push(item);
      else refs(item, found);
    }
  }
  return found;
}

function resolvePointer(doc: unknown, ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined;
  return ref
    .slice(2)
    .split('/')
    .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'))
    .reduce<unknown>((node, part) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined), doc);
}

describe('GET /api/openapi.json', () => {
  it('answers without credentials with an OpenAPI 3 document', async () => {
    const doc = await fetchDocument();
    assert.match(doc.openapi, /^3\.\d+\.\d+$/);
    assert.equal(typeof doc.info.title, 'string');
    assert.equal(typeof doc.info.version, 'string');
    assert.ok(doc.paths && typeof doc.paths === 'object');
  });

  it('is structurally valid: paths, parameters, responses, references and security schemes', async () => {
    const doc = await fetchDocument();
    const problems: string[] = [];
    const operationIds = new Set<string>();
    const schemes = new Set(Object.keys(doc.components?.securitySchemes ?? {}));
    for (const requirement of doc.security ?? []) {
      for (const name of Object.keys(requirement)) if (!schemes.has(name)) problems.push(`global security names an undefined scheme "${name}"`);
    }
    for (const { path, method, operation, pathParameters } of operations(doc)) {
      const where = `${method.toUpperCase()} ${path}`;
      if (!path.startsWith('/')) problems.push(`${where}: a path must start with /`);
      if (/\/:/.test(path)) problems.push(`${where}: path parameters must be written {name}`);
      const parameters = [...pathParameters, ...(operation.parameters ?? [])];
      for (const parameter of parameters) {
        if (typeof parameter.name !== 'string' || !['query', 'header', 'path', 'cookie'].includes(parameter.in)) {
          problems.push(`${where}: parameter ${JSON.stringify(parameter)} needs a name and in of query, header, path or cookie`);
        }
        if (!parameter.schema && !parameter.content) problems.push(`${where}: parameter ${parameter.name} has no schema`);
        if (parameter.in === 'path' && parameter.required !== true) problems.push(`${where}: path parameter ${parameter.name} must be required`);
      }
      for (const name of [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!)) {
        if (!parameters.some((p) => p.in === 'path' && p.name === name)) problems.push(`${where}: {${name}} is not declared as a path parameter`);
      }
      for (const p of parameters.filter((p) => p.in === 'path')) {
        if (!path.includes(`{${p.name}}`)) problems.push(`${where}: path parameter ${p.name} is not in the path`);
      }
      const responses = Object.entries(operation.responses ?? {});
      if (responses.length === 0) problems.push(`${where}: no responses`);
      for (const [status, response] of responses) {
        if (!/^([1-5]\d\d|[1-5]XX|default)$/.test(status)) problems.push(`${where}: response key ${status} is not a status code`);
        if (typeof response.description !== 'string') problems.push(`${where}: response ${status} has no description`);
      }
      if (operation.operationId !== undefined) {
        if (operationIds.has(operation.operationId)) problems.push(`${where}: operationId ${operation.operationId} is not unique`);
        operationIds.add(operation.operationId);
      }
      for (const requirement of operation.security ?? []) {
        for (const name of Object.keys(requirement)) if (!schemes.has(name)) problems.push(`${where}: security names an undefined scheme "${name}"`);
      }
      if (operation.tags && !operation.tags.every((tag) => typeof tag === 'string')) problems.push(`${where}: tags must be strings`);
    }
    for (const ref of new Set(refs(doc))) {
      if (resolvePointer(doc, ref) === undefined) problems.push(`$ref ${ref} does not resolve`);
    }
    assert.deepEqual(problems, []);
  });

  it('describes every /api route that is not hidden, and no hidden one', async () => {
    const doc = await fetchDocument();
    const missing: string[] = [];
    const shown: string[] = [];
    for (const route of t.app.routeTable) {
      if (!route.url.startsWith('/api/')) continue;
      const documented = Boolean(doc.paths[openApiPath(route.url)]?.[route.method.toLowerCase()]);
      if (route.hidden && documented) shown.push(`${route.method} ${route.url}`);
      if (!route.hidden && !documented) missing.push(`${route.method} ${route.url}`);
    }
    assert.deepEqual(missing, [], 'routes missing from /api/openapi.json');
    assert.deepEqual(shown, [], 'hidden routes that appear in /api/openapi.json');
  });

  it('marks no authenticated /api route as needing no credentials', async () => {
    const doc = await fetchDocument();
    const wrong = t.app.routeTable
      .filter((route) => route.url.startsWith('/api/') && !route.public && !route.hidden)
      .filter((route) => {
        const operation = doc.paths[openApiPath(route.url)]?.[route.method.toLowerCase()];
        const security = operation?.security ?? doc.security ?? [];
        return security.length === 0 || security.some((requirement) => Object.keys(requirement).length === 0);
      })
      .map((route) => `${route.method} ${route.url}`);
    assert.deepEqual(wrong, []);
  });

  it('documents the 401 of every authenticated /api route', async () => {
    const doc = await fetchDocument();
    const undocumented = t.app.routeTable
      .filter((route) => route.url.startsWith('/api/') && !route.public && !route.hidden)
      .filter((route) => !doc.paths[openApiPath(route.url)]?.[route.method.toLowerCase()]?.responses?.['401'])
      .map((route) => `${route.method} ${route.url}`);
    assert.deepEqual(undocumented, [], 'add errors(401) to the response schemas of these routes');
  });
});
