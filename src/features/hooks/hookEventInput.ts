import type { IncomingHttpHeaders } from 'node:http';
import { type Static, Type } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { InvalidInput } from '../../lib/errors.ts';
import { assertStorable } from '../../http/boundary.ts';
import { CreateEventBody } from '../events/schemas.ts';
import type { EventInput } from '../events/validateEventInput.ts';
import { type TemplateName, checkTemplateName, templateFields } from './templates/index.ts';

/** What the hook URL received, before any of it is trusted. */
export interface HookRequest {
  headers: IncomingHttpHeaders;
  query: Record<string, unknown>;
  /** The raw body (at most 64 KB), or undefined for a request without one. */
  body: Buffer | undefined;
}

/**
 * A JSON body takes the fields of POST /api/events. The project comes from the hook, so a
 * `project` field is ignored; category and title may come from elsewhere, so they are optional.
 */
const HookJsonBody = Type.Partial(Type.Omit(CreateEventBody, ['project']));
const checkJsonBody = TypeCompiler.Compile(HookJsonBody);
type HookJson = Static<typeof HookJsonBody>;

const TRUE = /^(1|true|yes|on)$/i;
const FALSE = /^(0|false|no|off)$/i;
const NUMBER = /^\s*-?\d+(\.\d+)?\s*$/;

/**
 * Turns a hook request into the input of POST /api/events. For each field the most explicit
 * channel wins: a header, then the query string, then the JSON body or the plain-text body, then
 * the hook's default category. Everything can come from the query string, for GET-only clients.
 */
export function hookEventInput(defaults: { projectId: string; category: string; template?: string | null }, request: HookRequest): EventInput {
  const header = (name: string) => headerText(request.headers[name]);
  const query = (name: string) => queryText(request.query[name]);

  let json: HookJson = {};
  let text: string | undefined;
  // A `?template=` beats the hook's own; with one, the body is the service's payload, not event fields.
  const templateName = query('template') ?? defaults.template ?? null;
  const template: TemplateName | null = templateName === null ? null : checkTemplateName(templateName);
  if (template) {
    json = templateFields(template, request.headers, request.body);
  } else if (request.body !== undefined && request.body.length > 0) {
    // An empty body is no body, whatever its Content-Type says: the query string may carry it all.
    if (isJson(request.headers['content-type'])) json = parseJsonBody(request.body);
    else text = request.body.toString('utf8');
  }

  const explicitTitle = header('title') ?? query('title') ?? json.title ?? undefined;
  const fromText = text === undefined ? undefined : splitText(text, explicitTitle !== undefined);
  const title = explicitTitle ?? fromText?.title;
  if (title === undefined || title.trim() === '') {
    throw new InvalidInput('title is required: send it as the first line of a text body, a Title header, a title query parameter or a JSON title field');
  }

  const tagsText = header('tags') ?? query('tags');
  const notifyText = header('notify') ?? query('notify');
  const createdAtText = query('created_at');
  const metadataText = query('metadata');
  const input: EventInput = {
    project: defaults.projectId,
    category: header('category') ?? query('category') ?? json.category ?? defaults.category,
    title,
    description: query('description') ?? json.description ?? fromText?.description ?? null,
    icon: query('icon') ?? json.icon ?? null,
    tags: tagsText !== undefined ? parseTags(tagsText) : (json.tags ?? null),
    metadata: metadataText !== undefined ? parseMetadata(metadataText) : (json.metadata ?? null),
    url: query('url') ?? json.url ?? null,
    user_id: query('user_id') ?? json.user_id ?? null,
    notify: notifyText !== undefined ? parseNotify(notifyText) : (json.notify ?? false),
    created_at: createdAtText !== undefined ? parseCreatedAt(createdAtText) : (json.created_at ?? null),
  };
  // Headers and the query string reach the event too: the same boundary rule as every JSON body.
  for (const [field, value] of Object.entries(input)) assertStorable(value, field);
  return input;
}

function isJson(contentType: string | undefined): boolean {
  return contentType?.split(';')[0]?.trim().toLowerCase() === 'application/json';
}

function parseJsonBody(body: Buffer): HookJson {
  let value: unknown;
  try {
    value = JSON.parse(body.toString('utf8'));
  } catch {
    throw new InvalidInput('Request body is not valid JSON');
  }
  assertStorable(value, 'body');
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new InvalidInput('A JSON body must be an object of event fields');
  }
  const error = checkJsonBody.Errors(value).First();
  if (error) {
    const field = error.path.replace(/^\//, '').replaceAll('/', '.');
    throw new InvalidInput(`body${field ? `.${field}` : ''}: ${error.message.toLowerCase()}`);
  }
  return value;
}

/**
 * Plain text: the first line is the title and the rest the description. When the title came from
 * elsewhere, the whole text is the description, so no line of it is dropped.
 */
function splitText(text: string, titleGiven: boolean): { title?: string; description?: string } {
  const tidy = (part: string) => part.replace(/^(\r?\n)+/, '').trimEnd() || undefined;
  if (titleGiven) return { description: tidy(text) };
  const body = text.replace(/^\s+/, '');
  const newline = body.indexOf('\n');
  if (newline < 0) return { title: body.trim() };
  return { title: body.slice(0, newline).trim(), description: tidy(body.slice(newline + 1)) };
}

/** `key=value` pairs separated by commas; values stay strings, as a header can only carry text. */
function parseTags(raw: string): Record<string, string> | null {
  const pairs: Array<[string, string]> = [];
  for (const part of raw.split(',')) {
    if (part.trim() === '') continue;
    const equals = part.indexOf('=');
    const key = equals < 0 ? '' : part.slice(0, equals).trim();
    if (!key) throw new InvalidInput('Tags must be comma-separated key=value pairs, e.g. "plan=pro, seats=3"');
    pairs.push([key, part.slice(equals + 1).trim()]);
  }
  // fromEntries defines own properties, so a key such as "__proto__" stays an ordinary tag.
  return pairs.length > 0 ? Object.fromEntries(pairs) : null;
}

function parseNotify(raw: string): boolean {
  if (TRUE.test(raw.trim())) return true;
  if (FALSE.test(raw.trim())) return false;
  throw new InvalidInput('Notify must be 1 (notify) or 0');
}

function parseCreatedAt(raw: string): number {
  if (!NUMBER.test(raw)) throw new InvalidInput('created_at must be Unix seconds');
  return Number(raw);
}

function parseMetadata(raw: string): object {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw new InvalidInput('metadata must be JSON text of an object or array');
  }
  if (typeof value !== 'object' || value === null) throw new InvalidInput('metadata must be a JSON object or array');
  assertStorable(value, 'metadata');
  return value;
}

/** The last value of a repeated parameter; Fastify gives arrays for those. */
function queryText(value: unknown): string | undefined {
  if (Array.isArray(value)) return queryText(value.at(-1));
  return typeof value === 'string' ? value : undefined;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Node reads header bytes as Latin-1. Clients that send UTF-8 anyway (curl -H "Title: Café") get
 * their text back; anything that is not valid UTF-8 is kept as Node read it.
 */
function headerText(value: string | string[] | undefined): string | undefined {
  if (Array.isArray(value)) return headerText(value.at(-1));
  if (value === undefined) return undefined;
  try {
    return utf8.decode(Buffer.from(value, 'latin1'));
  } catch {
    return value;
  }
}
