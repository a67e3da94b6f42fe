import type { Db } from './client.ts';

/** A table as a backup copies it: its stored columns (generated ones are computed again). */
interface TableShape {
  name: string;
  columns: string[];
}

/** Bookkeeping the restore rebuilds itself (by running the backup's migrations). */
const NOT_COPIED = new Set(['schema_migrations']);

/**
 * The installation's tables (schema public), parents before the tables whose foreign keys point
 * at them, so rows can be copied back in this order with every constraint checked.
 */
export async function tablesInDependencyOrder(db: Db): Promise<TableShape[]> {
  const columns = await db<{ table: string; column: string }[]>`
    SELECT c.relname AS table, a.attname AS column
    FROM pg_class c
    JOIN pg_namespace n ON n.oid = c.relnamespace
    JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = ''
    WHERE n.nspname = 'public' AND c.relkind = 'r'
    ORDER BY c.relname, a.attnum`;
  const references = await db<{ child: string; parent: string }[]>`
    SELECT DISTINCT child.relname AS child, parent.relname AS parent
    FROM pg_constraint k
    JOIN pg_class child ON child.oid = k.conrelid
    JOIN pg_class parent ON parent.oid = k.confrelid
    JOIN pg_namespace n ON n.oid = child.relnamespace
    WHERE k.contype = 'f' AND n.nspname = 'public' AND child.oid <> parent.oid`;

  const shapes = new Map<string, TableShape>();
  for (const { table, column } of columns) {
    if (NOT_COPIED.has(table)) continue;
    if (!shapes.has(table)) shapes.set(table, { name: table, columns: [] });
    shapes.get(table)!.columns.push(column);
  }
  const parents = new Map<string, Set<string>>([...shapes.keys()].map((name) => [name, new Set<string>()]));
  for (const { child, parent } of references) if (shapes.has(parent)) parents.get(child)?.add(parent);

  const ordered: TableShape[] = [];
  const placed = new Set<string>();
  while (placed.size < shapes.size) {
    const ready = [...shapes.keys()].filter((name) => !placed.has(name) && [...parents.get(name)!].every((p) => placed.has(p)));
    if (ready.length === 0) throw new Error('the tables reference each other in a cycle; cannot order them');
    for (const name of ready.sort()) {
      placed.add(name);
      ordered.push(shapes.get(name)!);
    }
  }
  return ordered;
}

export interface SequenceValue {
  name: string;
  value: string;
  called: boolean;
}

/** Every sequence of schema public with its current position. */
export async function sequenceValues(db: Db): Promise<SequenceValue[]> {
  const names = await db<{ name: string }[]>`
    SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = 'public' AND c.relkind = 'S' ORDER BY 1`;
  const values: SequenceValue[] = [];
  for (const { name } of names) {
    const [row] = await db.unsafe<{ value: string; called: boolean }[]>(`SELECT last_value::text AS value, is_called AS called FROM ${quote(name)}`);
    values.push({ name, value: row!.value, called: row!.called });
  }
  return values;
}

/** Relations of schema public: a store with any is not empty. */
export async function countRelations(db: Db): Promise<number> {
  const [row] = await db<{ count: number }[]>`
    SELECT count(*)::int AS count FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p', 'v', 'm', 'S')`;
  return row!.count;
}

export const quote = (identifier: string): string => `"${identifier.replaceAll('"', '""')}"`;
