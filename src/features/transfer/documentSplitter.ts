/**
 * Splits an import document as it arrives, so that a file of a hundred thousand events is never
 * held whole, as text or as objects: each element of `projects[i].events` is handed over as its
 * own JSON text the moment it ends, and the rest of the document (the outline: names,
 * categories, insights, with every events array left empty) is kept as text.
 *
 * It only finds where elements start and end (strings, escapes and brackets); whether the pieces
 * are JSON is for JSON.parse to say. A valid document splits exactly; an invalid one always
 * leaves a piece that does not parse, or is flagged `malformed` here.
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;

/** What a container of the outline is, as far as the split cares. */
type Role = 'root' | 'projects' | 'project';

interface Container {
  role: Role;
  isObject: boolean;
  /** Objects: the next string is a key. */
  expectKey: boolean;
  /** Objects: the last key read (root and project objects only). */
  key: string | null;
  /** Arrays: elements begun so far. */
  elements: number;
  /** Project objects: their index; their events arrays seen. */
  projectIndex: number;
  eventsSeen: number;
}

type EventSink = (projectIndex: number, eventIndex: number, text: string) => void;

/** The position of `search` in `text` from `from` on, or the text's length when there is none. */
function indexOrEnd(text: string, search: string, from: number): number {
  const at = text.indexOf(search, from);
  return at === -1 ? text.length : at;
}

export class DocumentSplitter {
  private readonly outline: string[] = [];
  private readonly containers: Container[] = [];
  /** Containers that are none of root, projects or project (and all inside them): only counted. */
  private untracked = 0;
  private inString = false;
  private escaped = false;
  /** Raw text of a key being read (root and project objects only). */
  private keyText: string[] | null = null;
  /** Inside an events array: the project, and the element being read. */
  private capture: { projectIndex: number; eventIndex: number; pieces: string[]; depth: number } | null = null;
  /** Set when the text cannot be JSON whatever the pieces are (a closing bracket of the wrong kind). */
  malformed = false;
  /** A project object with two `events` fields (JSON.parse would keep the last; this refuses). */
  repeatedEvents: number | null = null;

  constructor(private readonly sink: EventSink) {}

  write(chunk: string): void {
    let outlineFrom = this.capture ? -1 : 0;
    let elementFrom = this.capture ? 0 : -1;
    let keyFrom = this.keyText ? 0 : -1;
    // Where the next quote and backslash are, found natively: most of a document is inside strings.
    let nextQuote = -1;
    let nextBackslash = -1;
    for (let i = 0; i < chunk.length; i++) {
      if (this.inString && !this.escaped) {
        if (nextQuote < i) nextQuote = indexOrEnd(chunk, '"', i);
        if (nextBackslash < i) nextBackslash = indexOrEnd(chunk, '\\', i);
        i = Math.min(nextQuote, nextBackslash);
        if (i === chunk.length) break;
      }
      const code = chunk.charCodeAt(i);
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (code === BACKSLASH) this.escaped = true;
        else if (code === QUOTE) {
          this.inString = false;
          if (this.keyText) {
            this.keyText.push(chunk.slice(keyFrom, i));
            this.endKey();
            keyFrom = -1;
          }
        }
        continue;
      }
      const capture = this.capture;
      if (capture) {
        if (code === QUOTE) this.inString = true;
        else if (code === OPEN_OBJECT || code === OPEN_ARRAY) capture.depth++;
        else if (code === CLOSE_OBJECT || code === CLOSE_ARRAY || code === COMMA) {
          if (capture.depth > 0 && code !== COMMA) capture.depth--;
          else if (capture.depth === 0) {
            capture.pieces.push(chunk.slice(elementFrom, i));
            this.endElement(code === COMMA);
            if (code === CLOSE_OBJECT) this.malformed = true;
            if (code === COMMA) elementFrom = i + 1;
            else {
              // The events array is closed: the outline goes on from its closing bracket.
              this.capture = null;
              outlineFrom = i;
              elementFrom = -1;
            }
          }
        }
        continue;
      }
      const top = this.containers.at(-1);
      if (code === QUOTE) {
        this.inString = true;
        if (top && this.untracked === 0 && top.isObject && top.expectKey && (top.role === 'root' || top.role === 'project')) {
          this.keyText = [];
          keyFrom = i + 1;
        }
      } else if (code === OPEN_OBJECT || code === OPEN_ARRAY) {
        if (this.open(code === OPEN_OBJECT)) {
          this.outline.push(chunk.slice(outlineFrom, i + 1));
          outlineFrom = -1;
          elementFrom = i + 1;
        }
      } else if (code === CLOSE_OBJECT || code === CLOSE_ARRAY) {
        this.close();
      } else if (code === COMMA) {
        if (top && this.untracked === 0) {
          if (top.isObject) top.expectKey = true;
          else top.elements++;
        }
      } else if (code === COLON) {
        if (top && this.untracked === 0 && top.isObject) top.expectKey = false;
      }
    }
    if (outlineFrom >= 0) this.outline.push(chunk.slice(outlineFrom));
    if (elementFrom >= 0 && this.capture) this.capture.pieces.push(chunk.slice(elementFrom));
    if (keyFrom >= 0 && this.keyText) this.keyText.push(chunk.slice(keyFrom));
  }

  /** The outline's text; any element still open makes the document malformed. */
  end(): string {
    if (this.capture || this.inString) this.malformed = true;
    return this.outline.join('');
  }

  private endKey(): void {
    const raw = (this.keyText ?? []).join('');
    this.keyText = null;
    const top = this.containers.at(-1);
    if (!top) return;
    try {
      top.key = JSON.parse(`"${raw}"`) as string;
    } catch {
      top.key = null; // not a JSON string: the outline will not parse
    }
  }

  /** Opens a container; true when it is an events array, whose elements are captured from here. */
  private open(isObject: boolean): boolean {
    const parent = this.containers.at(-1);
    if (this.untracked > 0) {
      this.untracked++;
      return false;
    }
    const atValue = parent !== undefined && !parent.expectKey;
    if (parent?.role === 'project' && atValue && !isObject && parent.key === 'events') {
      parent.eventsSeen++;
      if (parent.eventsSeen > 1) this.repeatedEvents ??= parent.projectIndex;
      this.capture = { projectIndex: parent.projectIndex, eventIndex: 0, pieces: [], depth: 0 };
      return true;
    }
    let role: Role | null = null;
    if (!parent) role = isObject ? 'root' : null;
    else if (parent.role === 'root' && atValue && !isObject && parent.key === 'projects') role = 'projects';
    else if (parent.role === 'projects' && isObject) role = 'project';
    if (role === null) {
      this.untracked++;
      return false;
    }
    this.containers.push({
      role,
      isObject,
      expectKey: isObject,
      key: null,
      elements: 0,
      projectIndex: parent?.role === 'projects' ? parent.elements : -1,
      eventsSeen: 0,
    });
    return false;
  }

  private close(): void {
    if (this.untracked > 0) this.untracked--;
    else this.containers.pop();
  }

  /** An element of the events array ended (at a comma when more may follow). */
  private endElement(more: boolean): void {
    const capture = this.capture!;
    const text = capture.pieces.join('').trim();
    capture.pieces = [];
    // `[]` holds no element; `[1,]` and `[,1]` hold an empty one, which will not parse.
    if (text !== '' || more || capture.eventIndex > 0) this.sink(capture.projectIndex, capture.eventIndex, text);
    capture.eventIndex++;
  }
}
