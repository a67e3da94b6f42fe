/**
 * Splits a migration file into its statements, at the semicolons that end them: outside quotes,
 * quoted identifiers, dollar-quoted bodies and comments. Citus forwards some DDL to its workers as
 * the text the client sent (ADD CONSTRAINT, CREATE INDEX on a distributed table), and a worker
 * refuses a text of several statements; sent one at a time, each is its own text.
 */
export function sqlStatements(text: string): string[] {
  const statements: string[] = [];
  let start = 0;
  let i = 0;
  const skipPast = (end: string, from: number) => {
    const at = text.indexOf(end, from);
    return at === -1 ? text.length : at + end.length;
  };
  while (i < text.length) {
    const ch = text[i]!;
    const next = text[i + 1];
    if (ch === '-' && next === '-') i = skipPast('\n', i + 2);
    else if (ch === '/' && next === '*') i = skipPast('*/', i + 2);
    else if (ch === "'" || ch === '"') i = skipQuoted(text, i, ch);
    else if (ch === '$') {
      const tag = /^\$[A-Za-z_]*\$/.exec(text.slice(i, i + 64))?.[0];
      i = tag ? skipPast(tag, i + tag.length) : i + 1;
    } else if (ch === ';') {
      pushStatement(statements, text.slice(start, i));
      start = ++i;
    } else i++;
  }
  pushStatement(statements, text.slice(start));
  return statements;
}

/** Past the closing quote; a doubled quote inside is part of the text. */
function skipQuoted(text: string, open: number, quote: string): number {
  let i = open + 1;
  while (i < text.length) {
    if (text[i] === quote) {
      if (text[i + 1] === quote) i += 2;
      else return i + 1;
    } else i++;
  }
  return i;
}

/** Keeps a statement unless it is only blanks and comments. */
function pushStatement(statements: string[], statement: string): void {
  const code = statement
    .replace(/--[^\n]*/g, '')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .trim();
  if (code) statements.push(statement.trim());
}
