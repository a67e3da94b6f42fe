// Module hooks that run the test files and the sources they import as TypeScript: each .ts/.tsx
// file is stripped of its types by esbuild once, and the JavaScript kept in a cache keyed by the
// file's path, size and modification time. `npm test` starts some 550 processes (a file per store);
// tsx did the same job at about 1.4 s more CPU per process, spent resolving and looking up its own
// cache (decision 229). Only types are removed, as tsx does: imports keep their .ts specifiers,
// which Node resolves itself (but for the client package's .js specifiers), and no type is
// checked (`npm run typecheck` does that).
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const cacheDir = path.join(os.tmpdir(), `eventlog-typescript-${process.getuid?.() ?? 'user'}`);
fs.mkdirSync(cacheDir, { recursive: true });
/** The compiler options that change emitted JavaScript (tsconfig.json; web/tsconfig.json for JSX). */
const tsconfigRaw = { compilerOptions: { verbatimModuleSyntax: true, jsx: 'react-jsx', target: 'es2022' } };
let esbuild;

/**
 * The client package (client/src/) writes its relative imports as the .js files tsc emits; here
 * they name the .ts source beside. Only a failed resolution is looked at again.
 */
export async function resolve(specifier, context, nextResolve) {
  try {
    return await nextResolve(specifier, context);
  } catch (error) {
    const emitted = error?.code === 'ERR_MODULE_NOT_FOUND' && /^\.\.?\//.test(specifier) && specifier.endsWith('.js');
    if (emitted && context.parentURL?.endsWith('.ts')) return nextResolve(`${specifier.slice(0, -3)}.ts`, context);
    throw error;
  }
}

export async function load(url, context, nextLoad) {
  if (!url.startsWith('file:') || !/\.tsx?$/.test(url)) return nextLoad(url, context);
  const file = new URL(url).pathname;
  const stat = fs.statSync(file);
  const key = crypto.createHash('sha1').update(`${file}\0${stat.size}\0${stat.mtimeMs}`).digest('hex');
  const cached = path.join(cacheDir, `${key}.js`);
  let source;
  try {
    source = fs.readFileSync(cached, 'utf8');
  } catch {
    esbuild ??= await import('esbuild');
    const loader = file.endsWith('.tsx') ? 'tsx' : 'ts';
    source = esbuild.transformSync(fs.readFileSync(file, 'utf8'), {
      loader,
      format: 'esm',
      target: 'node20',
      sourcemap: 'inline',
      sourcefile: file,
      tsconfigRaw,
    }).code;
    // Written aside and renamed, so a process reading the cache never sees half a file.
    const partial = `${cached}.${process.pid}`;
    fs.writeFileSync(partial, source);
    fs.renameSync(partial, cached);
  }
  return { format: 'module', source, shortCircuit: true };
}
