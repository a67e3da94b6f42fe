import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

// The code map (docs/architecture.md) and the sources, as the structure tests read them: who owns
// which table, and each source file's text with its comments blanked out.
const ROOT = path.resolve(import.meta.dirname, '../..');
const ARCHITECTURE = path.join(ROOT, 'docs/architecture.md');
export const EVENTS = 'src/features/events/';
/** Source files outside src/ that belong to a feature: the ingest function is the events feature's code. */
export const FOLDER_OF_FILE: Record<string, string> = { 'migrations/repeatable/ingest_events.sql': EVENTS };

export const readCodeMap = () => fs.readFileSync(ARCHITECTURE, 'utf8');

/** One `## ` section of the code map, without its heading. */
export function codeMapSection(markdown: string, heading: string): string {
  const section = markdown.split(`\n## ${heading}\n`)[1]?.split('\n## ')[0];
  assert.ok(section, `docs/architecture.md has the section "${heading}"`);
  return section;
}

export interface Owners {
  /** Table → the folder that writes it (`src/features/<f>/` or `src/db/`). */
  owner: Map<string, string>;
  /** Other owners' tables that the events feature writes beside the events ("Rows an event brings"). */
  broughtByEvents: Set<string>;
}

/** The owners' table and the rows-an-event-brings list of the code map's section. */
export function parseOwners(markdown: string): Owners {
  const section = codeMapSection(markdown, 'Who owns which table');
  const owner = new Map<string, string>();
  const broughtByEvents = new Set<string>();
  for (const line of section.split('\n')) {
    const cells = line.split('|').slice(1, -1);
    if (cells.length >= 2 && cells[0]!.includes('`')) {
      assert.equal(cells.length, 2, `two columns, table and owner: ${line}`);
      const folder = /`([A-Za-z]+\/)`/.exec(cells[1]!)?.[1];
      assert.ok(folder, `an owner folder in: ${line}`);
      for (const [, table] of cells[0]!.matchAll(/`([a-z_]+)`/g)) {
        assert.ok(!owner.has(table!), `${table} is listed once`);
        owner.set(table!, folder === 'db/' ? 'src/db/' : `src/features/${folder}`);
      }
    }
    const brought = /^- `([a-z_]+)` \(`[A-Za-z]+\/`\)/.exec(line);
    if (brought) broughtByEvents.add(brought[1]!);
  }
  return { owner, broughtByEvents };
}

/**
 * The text with its comments blanked out, lines kept: prose may name a statement. A block comment
 * opens a line and a line comment follows a space, as this code writes them, so a string such as
 * '/app/*' or 'https://' is no comment.
 */
export function withoutComments(file: string, text: string): string {
  const blank = (comment: string) => comment.replace(/[^\n]/g, ' ');
  const code = text
    .replace(/^[ \t]*\/\*[\s\S]*?\*\//gm, blank)
    .replace(/(^|\s)\/\/(?=\s|$).*$/gm, (all, before: string) => before + blank(all.slice(before.length)));
  if (file.endsWith('.sql')) return code.replace(/--.*$/gm, blank);
  // SQL's line comments inside a file's statements: "--" after a space and before one.
  return code.replace(/(^|\s)--(?=\s).*$/gm, (all, before: string) => before + blank(all.slice(before.length)));
}

export const lineAt = (text: string, index: number) => text.slice(0, index).split('\n').length;

/** The files under `dir` (relative to the repository, as is each path it answers) whose names match `name`. */
export function filesUnder(dir: string, name: RegExp): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const file = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return filesUnder(file, name);
    return name.test(entry.name) ? [file] : [];
  });
}

/** Every source file of src/ and the feature files outside it, by path, with its text. */
export function readSources(): Record<string, string> {
  return Object.fromEntries(
    [...filesUnder('src', /\.ts$/), ...Object.keys(FOLDER_OF_FILE)].map((file) => [file, fs.readFileSync(path.join(ROOT, file), 'utf8')]),
  );
}
