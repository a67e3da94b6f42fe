// The container lane of `npm test` (test/container/, decision 181): where podman and the base
// images are present, the runner builds the image of the sources once, and for the upgrade test
// the image of an older commit, runs test/container/*.test.ts against them, then removes both
// images. podman stands in for Docker: it builds the same Dockerfile and runs the same compose
// files (../shared/containers/ sets it up on machines without Docker).
import { execFileSync, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const BASE_IMAGES = ['docker.io/library/node:20-bookworm-slim', 'docker.io/library/postgres:15-bookworm'];
const SETUP = '../shared/containers/setup.sh and base-images.sh';

function succeeds(program, args) {
  try {
    execFileSync(program, args, { stdio: 'ignore', timeout: 60_000 });
    return true;
  } catch {
    return false;
  }
}

/** `{ kind: 'podman' }`, or `{ kind: 'none', why }` when the lane cannot run on this machine. */
export function containerLaneSource() {
  if (!succeeds('podman', ['--version'])) return { kind: 'none', why: `podman is not installed (${SETUP})` };
  if (!succeeds('podman-compose', ['version'])) return { kind: 'none', why: `podman-compose is not installed (${SETUP})` };
  const missing = BASE_IMAGES.filter((image) => !succeeds('podman', ['image', 'exists', image]));
  if (missing.length) return { kind: 'none', why: `the base image(s) ${missing.join(', ')} are missing (${SETUP})` };
  return { kind: 'podman' };
}

/**
 * The commit whose image the upgrade test starts from: the parent of the newest commit that
 * added a numbered migration, so that the newer image has at least one migration to apply (a
 * commit that only edits an existing migration adds none). Null outside a git checkout.
 */
function previousCommit(root) {
  try {
    const git = (...args) => execFileSync('git', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    const lastMigration = git('log', '-1', '--diff-filter=A', '--format=%H', '--', 'migrations/[0-9]*.sql');
    return lastMigration ? git('rev-parse', '--verify', `${lastMigration}^{commit}^`) : null;
  } catch {
    return null;
  }
}

/**
 * `podman build` of `context`, its output in `logFile`. On the vfs storage driver every cached
 * step still copies the image's whole file system and deletes it at the end, so there a build
 * without layers is faster (about 4.5 minutes against 10.5 for a rebuild) and leaves no
 * intermediate images behind; elsewhere (overlay) the layers are reused.
 */
async function build(tag, context, logFile) {
  const driver = execFileSync('podman', ['info', '--format', '{{.Store.GraphDriverName}}'], { encoding: 'utf8' }).trim();
  const args = ['build', '--network', 'host', ...(driver === 'vfs' ? ['--layers=false'] : []), '-t', tag, context];
  const started = Date.now();
  const status = await new Promise((resolve) => {
    const out = fs.openSync(logFile, 'w');
    const child = spawn('podman', args, { stdio: ['ignore', out, out], env: { ...process.env, BUILDAH_FORMAT: 'docker' } });
    child.on('close', (code) => {
      fs.closeSync(out);
      resolve(code);
    });
  });
  if (status !== 0) {
    const tail = fs.readFileSync(logFile, 'utf8').split('\n').slice(-30).join('\n');
    throw new Error(`podman ${args.join(' ')} exited with ${status}:\n${tail}`);
  }
  return Math.round((Date.now() - started) / 1000);
}

/** The sources of `commit` in `dir`, with today's Dockerfile (older commits may have none). */
function exportCommit(root, commit, dir) {
  fs.mkdirSync(dir, { recursive: true });
  execFileSync('sh', ['-c', `git archive --format=tar ${commit} | tar -x -C "$1"`, 'sh', dir], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  // The image runs dist/ without src/; serverBuild.js learnt that with the Dockerfile.
  for (const file of ['Dockerfile', '.dockerignore', 'scripts/serverBuild.js']) fs.copyFileSync(path.join(root, file), path.join(dir, file));
}

/**
 * Builds the images the lane's files need. Resolves with the environment for the test files and
 * a cleanUp that removes the images; logs what it builds and how long it took.
 */
export async function prepareContainerLane({ root, workDir, files, log }) {
  const run = crypto.randomBytes(3).toString('hex');
  const image = `localhost/eventlog-test-${run}:current`;
  const env = { EVENTLOG_TEST_IMAGE: image };
  const built = [];
  const cleanUp = () => {
    for (const tag of built) succeeds('podman', ['rmi', '-f', tag]);
  };
  try {
    log(`# container lane: building ${image} from the working tree`);
    built.push(image);
    log(`# container lane: built in ${await build(image, root, path.join(workDir, 'build-current.log'))} s`);
    const commit = files.some((file) => file.endsWith(`upgrade.test.ts`)) ? previousCommit(root) : null;
    if (commit) {
      const previous = `localhost/eventlog-test-${run}:previous`;
      const dir = path.join(workDir, 'previous');
      exportCommit(root, commit, dir);
      log(`# container lane: building ${previous} from ${commit.slice(0, 10)}`);
      built.push(previous);
      log(`# container lane: built in ${await build(previous, dir, path.join(workDir, 'build-previous.log'))} s`);
      fs.rmSync(dir, { recursive: true, force: true });
      env.EVENTLOG_TEST_PREVIOUS_IMAGE = previous;
      env.EVENTLOG_TEST_PREVIOUS_COMMIT = commit;
    }
  } catch (error) {
    cleanUp();
    throw error;
  }
  return { env, cleanUp };
}
