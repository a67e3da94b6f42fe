/**
 * `npm run lint` step: every export of a module must be imported by some other file, else it is
 * dead code or belongs unexported in its own file. Reads the three TypeScript projects (server,
 * tooling and tests; the dashboard; the client library) with the compiler API and fails listing
 * each export nothing imports. Entry points, whose exports are called from outside the graph
 * (bin/eventlog.js, the browser, the client's users), and generated files are allowed below.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const PROJECTS = ['tsconfig.json', 'web/tsconfig.json', 'client/tsconfig.json'];

/** Files (a folder: ending in /) whose exports are used from outside the TypeScript graph, or generated whole. */
const ENTRY_POINTS: Record<string, string[] | 'all'> = {
  'src/cli/main.ts': ['main'], // bin/eventlog.js imports it by a computed path
  'client/src/index.ts': 'all', // the client library's public surface
  'client/src/generated.ts': 'all', // the API's types, generated for the client's users
  'web/src/generated/': 'all', // the same types for the dashboard (a folder: every file in it)
  'web/vite.config.ts': ['default'],
};

/** Only these folders' modules are checked; tests, benchmarks and scripts are entry points themselves. */
const CHECKED = ['src/', 'web/src/', 'client/src/'];

const relative = (fileName: string) => path.relative(ROOT, fileName).split(path.sep).join('/');

/** file → names imported from it by other files ('*' = every export). */
const used = new Map<string, Set<string>>();
/** file → its exported names, with the line of each. */
const exported = new Map<string, Map<string, number>>();

function markUsed(file: string, name: string): void {
  let names = used.get(file);
  if (!names) used.set(file, (names = new Set()));
  names.add(name);
}

for (const project of PROJECTS) {
  const configFile = path.join(ROOT, project);
  const { config } = ts.readConfigFile(configFile, (file) => ts.sys.readFile(file)) as { config: unknown };
  const parsed = ts.parseJsonConfigFileContent(config, ts.sys, path.dirname(configFile));
  const program = ts.createProgram(parsed.fileNames, parsed.options);
  const checker = program.getTypeChecker();

  const targetOf = (specifier: ts.Expression): string | undefined => {
    const symbol = checker.getSymbolAtLocation(specifier);
    const declaration = symbol?.valueDeclaration ?? symbol?.declarations?.[0];
    return declaration && ts.isSourceFile(declaration) ? relative(declaration.fileName) : undefined;
  };

  for (const source of program.getSourceFiles()) {
    if (source.isDeclarationFile || source.fileName.includes('/node_modules/')) continue;
    const file = relative(source.fileName);

    const moduleSymbol = checker.getSymbolAtLocation(source);
    if (moduleSymbol && CHECKED.some((folder) => file.startsWith(folder)) && !exported.has(file)) {
      const names = new Map<string, number>();
      for (const symbol of checker.getExportsOfModule(moduleSymbol)) {
        const declaration = symbol.declarations?.[0];
        // Re-exports (`export { x } from`) are counted where they are declared.
        if (!declaration || declaration.getSourceFile() !== source) continue;
        names.set(symbol.name, source.getLineAndCharacterOfPosition(declaration.getStart()).line + 1);
      }
      exported.set(file, names);
    }

    const visit = (node: ts.Node): void => {
      if (ts.isImportDeclaration(node)) {
        const target = targetOf(node.moduleSpecifier);
        const clause = node.importClause;
        if (target && !clause) markUsed(target, '*'); // a side-effect import
        if (target && clause) {
          if (clause.name) markUsed(target, 'default');
          const bindings = clause.namedBindings;
          if (bindings && ts.isNamespaceImport(bindings)) markUsed(target, '*');
          if (bindings && ts.isNamedImports(bindings)) {
            for (const element of bindings.elements) markUsed(target, (element.propertyName ?? element.name).text);
          }
        }
      } else if (ts.isExportDeclaration(node) && node.moduleSpecifier) {
        const target = targetOf(node.moduleSpecifier);
        if (target && (!node.exportClause || ts.isNamespaceExport(node.exportClause))) markUsed(target, '*');
        if (target && node.exportClause && ts.isNamedExports(node.exportClause)) {
          for (const element of node.exportClause.elements) markUsed(target, (element.propertyName ?? element.name).text);
        }
      } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0]) {
        const target = targetOf(node.arguments[0]);
        if (target) markUsed(target, '*');
      } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
        const target = targetOf(node.argument.literal);
        if (target) markUsed(target, node.qualifier && ts.isIdentifier(node.qualifier) ? node.qualifier.text : '*');
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
}

const unused: string[] = [];
for (const [file, names] of [...exported].sort(([a], [b]) => a.localeCompare(b))) {
  const allowed = ENTRY_POINTS[file] ?? ENTRY_POINTS[`${path.posix.dirname(file)}/`];
  if (allowed === 'all') continue;
  const imported = used.get(file) ?? new Set<string>();
  if (imported.has('*')) continue;
  for (const [name, line] of names) {
    if (!imported.has(name) && !allowed?.includes(name)) unused.push(`${file}:${line} ${name}`);
  }
}

if (unused.length) {
  process.stderr.write(`Exports nothing imports (remove them, or drop \`export\` if the file uses them):\n${unused.map((entry) => `  ${entry}`).join('\n')}\n`);
  process.exit(1);
}
