// `npm run client:types`: writes the API's request and response types from the server's OpenAPI
// document, for the two programs that call it:
// - client/src/generated.ts, the client library's: every operation that has an operationId;
// - web/src/generated/<tag>.ts, the dashboard's: every such operation a dashboard session may
//   call (its security allows the session cookie, or no credential), one file per OpenAPI tag.
// `--check` writes nothing and exits 1 when a file is stale, missing or left over; `npm run lint`
// runs it, so CI fails on types that no longer match the server.
import fs from 'node:fs';
import path from 'node:path';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import type { Services } from '../src/context.ts';
import { createLogger } from '../src/logger.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const CLIENT_TARGET = path.join(ROOT, 'client/src/generated.ts');
const DASHBOARD_FOLDER = path.join(ROOT, 'web/src/generated');

interface Schema {
  type?: string | string[];
  nullable?: boolean;
  enum?: unknown[];
  const?: unknown;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  description?: string;
}
interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: Schema;
}
type Security = Array<Record<string, string[]>>;
interface Operation {
  operationId?: string;
  summary?: string;
  tags?: string[];
  security?: Security;
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
  responses?: Record<string, { content?: Record<string, { schema?: Schema }> }>;
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
  security?: Security;
}
interface Entry {
  url: string;
  method: string;
  operation: Operation;
}

/** The document the server serves; the routes are registered, nothing touches a database. */
async function openApiDocument(): Promise<Document> {
  // Enough of the services to build the routes: nothing is listened on or queried.
  const services = { log: createLogger('silent'), config: loadConfig({}) } as unknown as Services;
  const app = await buildApp({ services, sessions: { authenticate: () => Promise.resolve(null) } });
  await app.ready();
  const document = app.swagger() as unknown as Document;
  await app.close();
  return document;
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const pascal = (name: string) => name.charAt(0).toUpperCase() + name.slice(1);
const comment = (text: string | undefined, indent: string) => (text ? `${indent}/** ${text.replace(/\*\//g, '* /')} */\n` : '');

function typeOf(schema: Schema | undefined, indent: string): string {
  if (!schema || Object.keys(schema).filter((key) => key !== 'description').length === 0) return 'unknown';
  let base: string;
  if (schema.enum) base = schema.enum.map((value) => JSON.stringify(value)).join(' | ');
  else if (schema.const !== undefined) base = JSON.stringify(schema.const);
  else if (schema.anyOf ?? schema.oneOf) base = union((schema.anyOf ?? schema.oneOf)!.map((member) => typeOf(member, indent)));
  else if (schema.allOf) base = schema.allOf.map((member) => `(${typeOf(member, indent)})`).join(' & ');
  else {
    const types = [schema.type ?? (schema.properties ? 'object' : undefined)].flat();
    base = union(types.map((type) => primitive(type, schema, indent)));
  }
  return schema.nullable && !base.split(' | ').includes('null') ? `${base} | null` : base;
}

function union(members: string[]): string {
  const unique = [...new Set(members)];
  return unique.includes('unknown') ? 'unknown' : unique.join(' | ');
}

function primitive(type: string | undefined, schema: Schema, indent: string): string {
  switch (type) {
    case 'string':
      return 'string';
    case 'integer':
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'null':
      return 'null';
    case 'array':
      return `Array<${typeOf(schema.items, indent)}>`;
    case 'object':
      return objectType(schema, indent);
    default:
      return 'unknown';
  }
}

function objectType(schema: Schema, indent: string): string {
  const inner = `${indent}  `;
  const required = new Set(schema.required ?? []);
  const lines = Object.entries(schema.properties ?? {}).map(([name, property]) => {
    const key = IDENTIFIER.test(name) ? name : JSON.stringify(name);
    return `${comment(property.description, inner)}${inner}${key}${required.has(name) ? '' : '?'}: ${typeOf(property, inner)};\n`;
  });
  const extra = schema.additionalProperties;
  if (extra !== undefined && extra !== false) {
    const named = lines.length > 0;
    lines.push(`${inner}[key: string]: ${extra === true || named ? 'unknown' : typeOf(extra, inner)};\n`);
  }
  return lines.length ? `{\n${lines.join('')}${indent}}` : 'Record<string, never>';
}

function parametersType(parameters: Parameter[]): string {
  return objectType(
    {
      properties: Object.fromEntries(
        parameters.map((parameter) => [parameter.name, { ...parameter.schema, description: parameter.description ?? parameter.schema?.description }]),
      ),
      required: parameters.filter((parameter) => parameter.required).map((parameter) => parameter.name),
    },
    '',
  );
}

/** Every operation that has an operationId, by operationId. */
function operationsOf(document: Document): Entry[] {
  return Object.entries(document.paths)
    .flatMap(([url, methods]) => Object.entries(methods).map(([method, operation]) => ({ url, method: method.toUpperCase(), operation })))
    .filter((entry) => entry.operation.operationId)
    .sort((a, b) => a.operation.operationId!.localeCompare(b.operation.operationId!));
}

/** The session cookie is one of its ways in, or it takes no credential at all. */
function sessionMayCall(operation: Operation, document: Document): boolean {
  const security = operation.security ?? document.security ?? [];
  return security.length === 0 || security.some((requirement) => 'session' in requirement || Object.keys(requirement).length === 0);
}

/**
 * The dashboard's call of one operation: `api.<operationId>({ path, query, body }, options)`,
 * typed by the operation's own types, so no page writes a path or a type by hand.
 */
function wrapper({ url, method, operation }: Entry, name: string, has: Set<string>): string {
  const parts = (['path', 'query', 'body'] as const).filter((part) => has.has(part));
  const optional = (part: string) =>
    part === 'query' && !(operation.parameters ?? []).some((parameter) => parameter.in === 'query' && parameter.required) ? '?' : '';
  const args = parts.length ? `args: { ${parts.map((part) => `${part}${optional(part)}: ${name}${pascal(part)}`).join('; ')} }, ` : '';
  const passed = parts.length ? 'args' : '{}';
  return `export const ${operation.operationId!} = (${args}options?: CallOptions) => call<${name}Response>('${method}', '${url}', ${passed}, options);`;
}

function render(entries: Entry[], about: string[] = [], withCalls = false): string {
  const out = [
    "// Generated by `npm run client:types` from the server's /api/openapi.json. Do not edit:",
    '// change the route schemas and run it again (`npm run lint` fails while this file is stale).',
    ...about,
    ...(withCalls ? ["import { type CallOptions, call } from '../api.ts';"] : []),
    '',
  ];
  for (const { url, method, operation } of entries) {
    const name = pascal(operation.operationId!);
    out.push(`// ${method} ${url}${operation.summary ? ` — ${operation.summary}` : ''}`);
    const has = new Set<string>();
    for (const place of ['query', 'header', 'path'] as const) {
      const parameters = (operation.parameters ?? []).filter((parameter) => parameter.in === place);
      if (parameters.length) out.push(`export type ${name}${pascal(place === 'header' ? 'headers' : place)} = ${parametersType(parameters)};`);
      if (parameters.length) has.add(place);
    }
    const body = operation.requestBody?.content?.['application/json']?.schema;
    if (body) out.push(`export type ${name}Body = ${typeOf(body, '')};`);
    if (body) has.add('body');
    const success = Object.keys(operation.responses ?? {})
      .sort()
      .find((status) => /^2\d\d$/.test(status));
    const response = success ? operation.responses![success]!.content?.['application/json']?.schema : undefined;
    out.push(`export type ${name}Response = ${response ? typeOf(response, '') : 'void'};`);
    if (withCalls) out.push(wrapper({ url, method, operation }, name, has));
    out.push('');
  }
  return `${out.join('\n').trimEnd()}\n`;
}

/** Every file this script owns, with the text it should hold. */
function files(document: Document): Map<string, string> {
  const entries = operationsOf(document);
  const out = new Map([[CLIENT_TARGET, render(entries)]]);
  const byTag = new Map<string, Entry[]>();
  for (const entry of entries.filter((candidate) => sessionMayCall(candidate.operation, document))) {
    const tag = entry.operation.tags?.[0] ?? 'other';
    byTag.set(tag, [...(byTag.get(tag) ?? []), entry]);
  }
  for (const [tag, tagged] of byTag) {
    const name = tag.replace(/[^A-Za-z0-9]+(.)/g, (_match, next: string) => next.toUpperCase());
    out.set(path.join(DASHBOARD_FOLDER, `${name}.ts`), render(tagged, [`// The dashboard's types and calls for the "${tag}" operations.`], true));
  }
  const modules = [...byTag.keys()].map((tag) => tag.replace(/[^A-Za-z0-9]+(.)/g, (_match, next: string) => next.toUpperCase())).sort();
  out.set(
    path.join(DASHBOARD_FOLDER, 'index.ts'),
    [
      '// Generated by `npm run client:types`. Every operation a dashboard session may call, as',
      "// `api.<operationId>()`: `import * as api from '../generated/index.ts'`.",
      ...modules.map((module) => `export * from './${module}.ts';`),
      '',
    ].join('\n'),
  );
  return out;
}

/** Files in the dashboard's folder that no tag produces any more. */
function leftOver(expected: Map<string, string>): string[] {
  if (!fs.existsSync(DASHBOARD_FOLDER)) return [];
  return fs
    .readdirSync(DASHBOARD_FOLDER)
    .map((name) => path.join(DASHBOARD_FOLDER, name))
    .filter((file) => !expected.has(file));
}

const expected = files(await openApiDocument());
const shown = (file: string) => path.relative(process.cwd(), file);
if (process.argv.includes('--check')) {
  const stale = [...expected].filter(([file, text]) => !fs.existsSync(file) || fs.readFileSync(file, 'utf8') !== text).map(([file]) => file);
  const problems = [...stale, ...leftOver(expected)];
  if (problems.length) {
    process.stderr.write(`Out of date with the route schemas (run \`npm run client:types\`):\n${problems.map((file) => `  ${shown(file)}`).join('\n')}\n`);
    process.exit(1);
  }
  process.stdout.write('API types (client and dashboard) are up to date\n');
} else {
  for (const file of leftOver(expected)) fs.rmSync(file);
  for (const [file, text] of expected) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    if (!fs.existsSync(file) || fs.readFileSync(file, 'utf8') !== text) {
      fs.writeFileSync(file, text);
      process.stdout.write(`wrote ${shown(file)}\n`);
    }
  }
}
