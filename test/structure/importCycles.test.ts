// npm test runs this file in one pass only: it reads the sources, not a database (decision 230).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { filesUnder } from './codeMap.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const IMPORT = /^(?:import|export)\s[^'"]*?\sfrom\s+['"](\.[^'"]+)['"]/gm;

/** Every relative import, type-only ones too: a circle of types is still a knot to read. */
function importGraph(dirs: string[]): Map<string, string[]> {
  const files = dirs.flatMap((dir) => filesUnder(dir, /\.tsx?$/).map((file) => path.join(ROOT, file)));
  const known = new Set(files);
  return new Map(
    files.map((file) => {
      const text = fs.readFileSync(file, 'utf8');
      const targets = [...text.matchAll(IMPORT)].map((match) => path.resolve(path.dirname(file), match[1]!));
      return [file, targets.filter((target) => known.has(target))];
    }),
  );
}

function firstCircle(graph: Map<string, string[]>): string[] | null {
  const state = new Map<string, 'open' | 'done'>();
  const trail: string[] = [];
  const visit = (file: string): string[] | null => {
    state.set(file, 'open');
    trail.push(file);
    for (const target of graph.get(file) ?? []) {
      if (state.get(target) === 'open') return [...trail.slice(trail.indexOf(target)), target];
      if (!state.has(target)) {
        const found = visit(target);
        if (found) return found;
      }
    }
    trail.pop();
    state.set(file, 'done');
    return null;
  };
  for (const file of graph.keys()) {
    if (state.has(file)) continue;
    const found = visit(file);
    if (found) return found;
  }
  return null;
}

describe('import graph', () => {
  it('has no circle in src/ or web/src/ (docs/architecture.md)', () => {
    const circle = firstCircle(importGraph(['src', 'web/src']));
    assert.equal(circle?.map((file) => path.relative(ROOT, file)).join(' → ') ?? null, null);
  });

  it('finds a circle when there is one', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
      ['d', ['a']],
    ]);
    assert.deepEqual(firstCircle(graph), ['a', 'b', 'c', 'a']);
  });
});
