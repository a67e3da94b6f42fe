import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config.ts';
import type { Ctx, Services } from '../context.ts';
import { openDatabase } from '../db/open.ts';
import { HttpError } from '../http/errors.ts';
import { createKey } from '../features/keys/createKey.ts';
import { listKeys } from '../features/keys/listKeys.ts';
import { findKeyOrganization } from '../features/keys/queries.ts';
import { revokeKey } from '../features/keys/revokeKey.ts';
import { createOrganization } from '../features/organizations/createOrganization.ts';
import { createUser } from '../features/users/createUser.ts';
import { createLogger } from '../logger.ts';
import { createServices } from '../services.ts';

const USAGE = `Usage: eventlog <command>

  serve                                          run the server (what npm start runs)
  org create <name> [--monthly-event-cap <n>]    create an organization
  key create <orgId>                             create an API key (the plaintext is shown once)
  key list <orgId>                               list an organization's API keys
  key revoke <keyId>                             revoke an API key
  user create <email> --org <orgId>              create a dashboard user; password on stdin

Settings come from the environment (DATA_DIR, DATABASE_URL, ...), as for the server.`;

class UsageError extends Error {}

type Command = (services: Services, args: string[]) => Promise<unknown>;

const operator = (services: Services, organizationId: string): Ctx => ({
  services,
  organizationId,
  actor: { kind: 'key', keyId: 'operator' },
});

function positional(args: string[], count: number, options: Record<string, { type: 'string' }> = {}) {
  const { values, positionals } = parseArgs({ args, options, allowPositionals: true, strict: true });
  if (positionals.length !== count) throw new UsageError(`expected ${count} argument(s), got ${positionals.length}`);
  return { values: values as Record<string, string | undefined>, positionals: positionals as string[] };
}

const commands: Record<string, Command> = {
  'org create': async (services, args) => {
    const { values, positionals } = positional(args, 1, { 'monthly-event-cap': { type: 'string' } });
    const rawCap = values['monthly-event-cap'];
    if (rawCap !== undefined && !/^\d+$/.test(rawCap)) throw new UsageError('--monthly-event-cap must be a whole number');
    return createOrganization({
      services,
      input: { name: positionals[0]!, monthlyEventCap: rawCap === undefined ? null : Number(rawCap) },
    });
  },
  'key create': async (services, args) => createKey({ ctx: operator(services, positional(args, 1).positionals[0]!), input: undefined }),
  'key list': async (services, args) => ({
    keys: await listKeys({ ctx: operator(services, positional(args, 1).positionals[0]!), input: undefined }),
  }),
  'key revoke': async (services, args) => {
    const keyId = positional(args, 1).positionals[0]!;
    const organizationId = await findKeyOrganization(services.sql, keyId);
    if (!organizationId) throw new HttpError(404, 'API key not found');
    return revokeKey({ ctx: operator(services, organizationId), input: { keyId } });
  },
  'user create': async (services, args) => {
    const { values, positionals } = positional(args, 1, { org: { type: 'string' } });
    if (!values.org) throw new UsageError('--org <orgId> is required');
    const password = await readStdin();
    return createUser({ services, input: { organizationId: values.org, email: positionals[0]!, password } });
  },
};

async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) process.stderr.write('Password: ');
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8').replace(/\r?\n$/, '');
}

function fail(message: string, code = 1): never {
  process.stderr.write(`eventlog: ${message}\n`);
  process.exit(code);
}

export async function main(argv: string[]): Promise<void> {
  const [first, second, ...rest] = argv;
  if (!first || first === '--help' || first === '-h' || first === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  if (first === 'serve') {
    const { serve } = await import('../server.ts');
    return serve();
  }
  const command = commands[`${first} ${second ?? ''}`];
  if (!command) fail(`unknown command "${[first, second].filter(Boolean).join(' ')}"\n\n${USAGE}`, 2);

  let config;
  try {
    config = loadConfig();
  } catch (error) {
    fail(error instanceof ConfigError ? error.message : String(error));
  }
  const log = createLogger(process.env.LOG_LEVEL ?? 'silent');
  let result: unknown;
  let failure: unknown;
  const db = await openDatabase(config, { attach: true, poolSize: 2 }).catch((error: unknown) =>
    fail(`cannot open the database: ${error instanceof Error ? error.message : String(error)}`),
  );
  const { services, close } = await createServices(config, db.sql, log, { listen: false });
  try {
    result = await command(services, rest);
  } catch (error) {
    failure = error;
  } finally {
    await close();
    await db.close();
  }
  if (failure instanceof UsageError) fail(`${failure.message}\n\n${USAGE}`, 2);
  if (failure instanceof HttpError) fail(failure.message);
  if (failure instanceof TypeError && 'code' in failure && String(failure.code).startsWith('ERR_PARSE_ARGS')) {
    fail(`${failure.message}\n\n${USAGE}`, 2);
  }
  if (failure) fail(failure instanceof Error ? failure.message : String(failure));
  process.stdout.write(`${JSON.stringify(result)}\n`);
}
