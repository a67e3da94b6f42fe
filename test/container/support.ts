// The container lane (scripts/containerLane.js builds the images): podman stands in for Docker,
// which runs the same Dockerfile and compose files. Every container, volume and compose project
// a test makes is named after the run and removed by cleanUp().
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import path from 'node:path';
import { waitUntil } from '../wait.ts';

export const ROOT = path.resolve(import.meta.dirname, '../..');
/** The image of the sources under test, and the one of an older commit (for the upgrade). */
export const IMAGE = process.env.EVENTLOG_TEST_IMAGE ?? '';
export const PREVIOUS_IMAGE = process.env.EVENTLOG_TEST_PREVIOUS_IMAGE ?? '';
/** Why the lane cannot run here (the runner sets the images only where podman can build them). */
export const NO_IMAGE = IMAGE ? false : 'EVENTLOG_TEST_IMAGE is not set: run the container lane through `npm test`';

const prefix = `eventlog-test-${crypto.randomBytes(3).toString('hex')}`;
const made = { containers: new Set<string>(), volumes: new Set<string>(), projects: new Map<string, { file: string; env: NodeJS.ProcessEnv }>() };
let names = 0;

/** A name no other run or test uses, for a container, a volume or a compose project. */
export function uniqueName(what: string): string {
  return `${prefix}-${what}-${++names}`;
}

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a program to its end; never throws for a non-zero exit (the caller checks `code`). */
export function run(program: string, args: string[], options: { env?: NodeJS.ProcessEnv; input?: string; timeoutMs?: number } = {}): Promise<Run> {
  return new Promise((resolve) => {
    const child = execFile(
      program,
      args,
      { cwd: ROOT, env: options.env ?? process.env, timeout: options.timeoutMs ?? 180_000, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout, stderr: error && !stderr ? String(error.message) : stderr });
      },
    );
    child.stdin?.end(options.input ?? '');
  });
}

/** `podman <args>`, which must succeed; its stdout, trimmed. */
export async function podman(...args: string[]): Promise<string> {
  const result = await run('podman', args);
  assert.equal(result.code, 0, `podman ${args.join(' ')} failed: ${result.stderr.slice(-2000)}`);
  return result.stdout.trim();
}

/** `podman exec <container> eventlog <args>`: the one JSON object the command prints. */
export async function eventlogIn(container: string, args: string[], input?: string): Promise<Reply['body']> {
  const result = await run('podman', ['exec', '-i', container, 'eventlog', ...args], { input });
  assert.equal(result.code, 0, `eventlog ${args.join(' ')} failed: ${result.stderr}`);
  return JSON.parse(result.stdout);
}

export { freePort } from '../ports.ts';

/** Until GET /healthz answers 200 on the published port. */
export async function waitForHealthy(baseUrl: string, timeoutMs = 120_000): Promise<void> {
  await waitUntil(
    () =>
      fetch(`${baseUrl}/healthz`, { signal: AbortSignal.timeout(2000) }).then(
        (reply) => reply.ok,
        () => false,
      ),
    { timeoutMs, intervalMs: 250, message: `${baseUrl}/healthz` },
  );
}

/** A container of the test's, removed (with its anonymous volumes) by cleanUp. */
export async function runContainer(options: { image?: string; volume?: string; port: number; args?: string[]; env?: Record<string, string> }): Promise<string> {
  const name = uniqueName('c');
  const volume = options.volume ?? uniqueName('v');
  made.volumes.add(volume);
  made.containers.add(name);
  const env = Object.entries(options.env ?? {}).flatMap(([key, value]) => ['-e', `${key}=${value}`]);
  await podman(
    'run',
    '-d',
    '--name',
    name,
    '-p',
    `127.0.0.1:${options.port}:3000`,
    '-v',
    `${volume}:/data`,
    ...env,
    ...(options.args ?? []),
    options.image ?? IMAGE,
  );
  return name;
}

export function remember(kind: 'container' | 'volume', name: string): void {
  (kind === 'container' ? made.containers : made.volumes).add(name);
}

/** `podman-compose -p <project> -f <file> <args>` with the test's variables. */
export async function compose(project: string, file: string, env: NodeJS.ProcessEnv, ...args: string[]): Promise<Run> {
  made.projects.set(project, { file, env });
  return run('podman-compose', ['-p', project, '-f', path.join(ROOT, file), ...args], { env: { ...process.env, ...env }, timeoutMs: 300_000 });
}

/** The containers of a compose project, by service name. */
export async function composeContainers(project: string): Promise<Map<string, string>> {
  const lines = await podman(
    'ps',
    '-a',
    '--filter',
    `label=io.podman.compose.project=${project}`,
    '--format',
    '{{.Names}} {{index .Labels "com.docker.compose.service"}}',
  );
  return new Map(
    lines
      .split('\n')
      .filter(Boolean)
      .map((line) => {
        const [name = '', service = ''] = line.split(' ');
        return [service, name];
      }),
  );
}

/** Removes everything the file made: compose projects (with their volumes), containers, volumes. */
export async function cleanUp(): Promise<void> {
  for (const [project, { file, env }] of made.projects) {
    // Containers first, with their anonymous volumes, which `down -v` leaves behind.
    for (const name of (await composeContainers(project).catch(() => new Map<string, string>())).values()) await run('podman', ['rm', '-f', '-v', name]);
    await compose(project, file, env, 'down', '-v');
    await run('podman', ['network', 'rm', '-f', `${project}_default`]);
  }
  if (made.containers.size) await run('podman', ['rm', '-f', '-v', ...made.containers]);
  if (made.volumes.size) await run('podman', ['volume', 'rm', '-f', ...made.volumes]);
  made.projects.clear();
  made.containers.clear();
  made.volumes.clear();
}

interface Reply {
  status: number;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read arbitrary JSON
  headers: Headers;
}

/** JSON over HTTP to a published port. */
export async function api(baseUrl: string, method: string, url: string, body?: unknown, headers: Record<string, string> = {}): Promise<Reply> {
  const reply = await fetch(`${baseUrl}${url}`, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await reply.text();
  const json = reply.headers.get('content-type')?.includes('json');
  return { status: reply.status, body: json && text ? JSON.parse(text) : text || null, headers: reply.headers };
}
