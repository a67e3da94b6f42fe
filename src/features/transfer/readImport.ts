import type { Static } from '@sinclair/typebox';
import { Ajv, type ErrorObject } from 'ajv';
import { StringDecoder } from 'node:string_decoder';
import { findJsonBoundaryProblem } from '../../lib/boundaryText.ts';
import { InvalidInput, ServiceError } from '../../lib/errors.ts';
import { DocumentSplitter } from './documentSplitter.ts';
import { CheckedEvents, type ProjectPlan, checkLabels, eventDraft, planProject } from './planImport.ts';
import { formatImportSchemaError } from './rowErrors.ts';
import { ImportDocument, TransferEvent } from './schemas.ts';

/** The options the HTTP layer's own validator uses (src/app.ts), so a row fails here as it would there. */
const ajv = new Ajv({ coerceTypes: false, removeAdditional: false, allErrors: false, useDefaults: true, strict: false });
const checkOutline = ajv.compile(ImportDocument);
const checkEvent = ajv.compile(TransferEvent);

const NOT_JSON = 'Request body is not valid JSON';

/** Where the checked event rows go while the rest of the document is still being read. */
export interface EventWriting {
  /** The fresh id of the file's project at `index`, the same every time it is asked. */
  projectId(index: number): string;
  /** A chunk of a project's checked COPY lines, in file order. */
  write(project: number, lines: Buffer): void;
  /** Nothing more will be written: the document has a problem and the import will fail. */
  abandon(): void;
  /** Resolves once the writer can take more, after letting its replies in. */
  room(): Promise<void>;
}

interface ReadImportOptions {
  /** The application's JSON parser (it refuses `__proto__` keys); throws on text that is not JSON. */
  parse: (text: string) => unknown;
  writer: EventWriting;
}

/** The body is read this many bytes at a time, with a turn of the event loop for the writer in between. */
const SLICE = 64 * 1024;

/** What the event rows read so far have shown: each project's checked events, and the first problem of each kind. */
class ImportReading {
  readonly events = new Map<number, CheckedEvents>();
  /** Rows are kept until the first problem: any problem fails the whole import. */
  private keeping = true;
  notJson = false;
  boundary: string | null = null;
  /** The first event row (in file order) that fails the schema, with its errors. */
  schema: { project: number; errors: ErrorObject[] } | null = null;
  /** The lowest project with an event row the rules refuse. */
  firstRefusingProject = Infinity;
  /** The project whose events were read last. */
  private latest: CheckedEvents | null = null;

  constructor(
    private readonly parse: (text: string) => unknown,
    private readonly writer: EventWriting,
  ) {}

  private stopKeeping(): void {
    this.keeping = false;
    for (const kept of this.events.values()) kept.drop();
    this.writer.abandon();
  }

  /** Every row is read: the last chunk of each project goes to the writer. */
  close(): void {
    if (this.keeping) for (const kept of this.events.values()) kept.close();
  }

  event(project: number, index: number, text: string): void {
    if (this.notJson) return;
    let row: unknown;
    try {
      if (text === '') throw new SyntaxError('empty element');
      row = this.parse(text);
    } catch {
      this.notJson = true;
      this.stopKeeping();
      return;
    }
    const path = `projects[${project}].events[${index}]`;
    const problem = findJsonBoundaryProblem(row, text, `body.${path}`, { depth: 5 });
    if (problem && this.boundary === null) {
      this.boundary = `${problem.field} ${problem.message}`;
      this.stopKeeping();
    }
    if (this.boundary !== null) return;
    if (!checkEvent(row)) {
      const prefix = `/projects/${project}/events/${index}`;
      if (this.schema === null) {
        this.schema = { project, errors: (checkEvent.errors ?? []).map((e) => ({ ...e, instancePath: prefix + e.instancePath })) };
        this.stopKeeping();
      }
      return;
    }
    if (this.schema !== null || project > this.firstRefusingProject) return;
    const checked = this.eventsOf(project);
    try {
      const draft = eventDraft(path, row);
      if (this.keeping) checked.add(draft);
    } catch (error) {
      if (!(error instanceof ServiceError)) throw error;
      checked.error ??= error;
      this.firstRefusingProject = Math.min(this.firstRefusingProject, project);
      if (this.keeping) this.stopKeeping();
    }
  }

  eventsOf(project: number): CheckedEvents {
    let checked = this.events.get(project);
    if (!checked) {
      // A project's events are all read once the next project's begin: its last chunk goes now,
      // so that each project's events take consecutive ids.
      if (this.keeping) this.latest?.close();
      this.events.set(project, (checked = new CheckedEvents((lines) => this.writer.write(project, lines))));
      this.latest = checked;
    }
    return checked;
  }
}

/** Where a schema error of the outline stands against the event rows: -1 before every row. */
function outlineErrorPlace(error: ErrorObject): { project: number; afterEvents: boolean } {
  const match = /^\/projects\/(\d+)(\/[^/]*)?/.exec(error.instancePath);
  if (!match) return { project: -1, afterEvents: false };
  // A project's fields are checked in schema order: id, name, categories, events, insights, alerts, groups.
  return { project: Number(match[1]), afterEvents: match[2] === '/insights' || match[2] === '/alerts' || match[2] === '/groups' };
}

function firstSchemaError(reading: ImportReading, outlineErrors: ErrorObject[] | null): Error | null {
  const rows = reading.schema;
  if (!outlineErrors?.length) return rows ? formatImportSchemaError(rows.errors) : null;
  const place = outlineErrorPlace(outlineErrors[0]!);
  const rowsFirst = rows !== null && (rows.project < place.project || (rows.project === place.project && place.afterEvents));
  return formatImportSchemaError(rowsFirst ? rows.errors : outlineErrors);
}

/**
 * Reads POST /api/import's body, consuming `body`, and checks all of it, holding only what is
 * still to be written: each event row is parsed, checked and made a COPY line on its own, and
 * each IMPORT_CHUNK of them goes to the writer while the rest is read. A document with several
 * problems is refused for the one the whole-document checks found first: JSON, then the boundary
 * rule, then the schema in file order, then the rules project by project. The writer is told to
 * stop at the first problem; what it wrote rolls back with the refusal.
 */
export async function readImport(body: Buffer[], { parse, writer }: ReadImportOptions): Promise<ProjectPlan[]> {
  const reading = new ImportReading(parse, writer);
  const splitter = new DocumentSplitter((project, index, text) => reading.event(project, index, text));
  const decoder = new StringDecoder('utf8');
  for (let chunk = body.shift(); chunk; chunk = body.shift()) {
    for (let at = 0; at < chunk.length; at += SLICE) {
      splitter.write(decoder.write(chunk.subarray(at, at + SLICE)));
      await writer.room();
    }
  }
  splitter.write(decoder.end());
  const outlineText = splitter.end();
  let outline: unknown;
  try {
    if (reading.notJson || splitter.malformed) throw new SyntaxError(NOT_JSON);
    // An empty body is answered as the route's schema would answer it.
    outline = outlineText.trim() === '' && reading.events.size === 0 ? undefined : parse(outlineText);
  } catch {
    throw new InvalidInput(NOT_JSON);
  }
  if (outline !== undefined) {
    const problem = findJsonBoundaryProblem(outline, outlineText, 'body');
    if (problem) throw new InvalidInput(`${problem.field} ${problem.message}`);
  }
  if (reading.boundary) throw new InvalidInput(reading.boundary);
  if (splitter.repeatedEvents !== null) throw new InvalidInput(`projects[${splitter.repeatedEvents}] has more than one events field`);
  const schemaError = firstSchemaError(reading, checkOutline(outline) ? null : (checkOutline.errors ?? []));
  if (schemaError) throw schemaError;
  const document = outline as Static<typeof ImportDocument>;
  const plans = document.projects.map((project, index) => planProject(index, writer.projectId(index), project, reading.eventsOf(index)));
  checkLabels(plans);
  reading.close();
  return plans;
}
