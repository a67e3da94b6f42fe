// The compiled server in dist/ and how to tell whether it matches src/. `bin/eventlog.js` runs
// dist/ only when its fingerprint matches the sources; otherwise it runs src/ through tsx, so an
// edited source is never shadowed by an old build. See docs/decisions/034-compiled-server.md.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export const root = path.resolve(import.meta.dirname, '..');
export const distDir = path.join(root, 'dist');
export const fingerprintFile = path.join(distDir, '.fingerprint');
const inputs = ['tsconfig.json', 'tsconfig.server.json', 'package-lock.json'];

/** A hash of the path, size and modification time of every server source and build setting. */
export function sourceFingerprint() {
  const hash = crypto.createHash('sha256');
  const add = (file) => {
    const stat = fs.statSync(file, { throwIfNoEntry: false });
    hash.update(`${path.relative(root, file)}\0${stat?.size ?? -1}\0${stat?.mtimeMs ?? -1}\n`);
  };
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) add(full);
    }
  };
  walk(path.join(root, 'src'));
  for (const file of inputs) add(path.join(root, file));
  return hash.digest('hex');
}

/**
 * True when dist/ was compiled from the sources as they are now. A copy that ships dist/ without
 * src/ (the container image, decision 180) has nothing else to run: its build is current.
 */
export function distIsCurrent() {
  if (!fs.existsSync(path.join(root, 'src'))) return fs.existsSync(fingerprintFile);
  try {
    return fs.readFileSync(fingerprintFile, 'utf8').trim() === sourceFingerprint();
  } catch {
    return false;
  }
}

/**
 * The Node flags the server runs with, as the shebang of bin/eventlog.js gives them; `npm start`
 * and the benchmark pass the same (docs/decisions/035-young-generation.md).
 */
export function serverNodeFlags() {
  const shebang = fs.readFileSync(path.join(root, 'bin/eventlog.js'), 'utf8').split('\n', 1)[0] ?? '';
  const match = /^#!\/usr\/bin\/env -S node(?<flags>( --[\w-]+(=\S+)?)*)$/.exec(shebang);
  if (!match?.groups) throw new Error(`bin/eventlog.js: unexpected first line ${JSON.stringify(shebang)}`);
  return match.groups.flags.trim().split(' ').filter(Boolean);
}
