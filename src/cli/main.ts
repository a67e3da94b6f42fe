import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config.ts';
import { type Ctx, OPERATOR, type Services } from '../context.ts';
import { openDatabase } from '../db/open.ts';
import { NotFound } from '../lib/errors.ts';
import { createKey } from '../features/keys/createKey.ts';
import { listKeys } from '../features/keys/listKeys.ts';
import { findKeyOrganization } from '../features/keys/queries.ts';
import { revokeKey } from '../features/keys/revokeKey.ts';
import { createOrganization } from '../features/organizations/createOrganization.ts';
import { lookUpOrganization } from '../features/organizations/organizationRecord.ts';
import { createAccountAsOperator } from '../features/accounts/createAccountAsOperator.ts';
import { createLogger } from '../logger.ts';
import { createServices } from '../services.ts';
import { BackupUsageError, backupCommand, restoreCommand } from './backupCommands.ts';
import { readPassword } from './readPassword.ts';

const USAGE = `Usage: eventlog <command>

  serve                                          run the server (what npm start runs)
  org create <name> [--monthly-event-cap <n>]    create an organization
  key create <orgId>                             create an API key (the plaintext is shown once)
  key list <orgId>                               list an organization's API keys
  key revoke <keyId>                             revoke an API key
  user create <email> --org <orgId>              create a dashboard user; password on stdin
  send <title> --project <id> --category <name>  create an event over HTTP (EVENTLOG_URL, EVENTLOG_KEY)
       [--description <text>|-] [--icon <emoji>] [--tag key=value]... [--notify] [--user <id>]
  send --batch <file>|- [--project <id>] [--category <name>]
                                                 create the file's events, one JSON event per line,
                                                 1,000 a request (--project, --category: defaults)
  backup <file>                                  write a consistent backup (the server may run)
  restore <file>                                 restore a backup into an empty store

Settings come from the environment (DATA_DIR, DATABASE_URL, ...), as for the server.
Each command prints one JSON object on stdout; failures go to stderr with a non-zero exit.`;

/** Wrong arguments: exit 2 with the usage, before the database is touched. */
class UsageError extends Error {}

/**
 * A command first prepares its input without the database (arguments, a password on stdin), so
 * a typo costs nothing and changes nothing and a prompt does not hold the cluster; then it runs
 * against the database with the same verbs the routes call.
 */
interface Command<I> {
  prepare(args: string[]): I | Promise<I>;
  run(services: Services, input: I): Promise<unknown>;
}

const command = <I>(definition: Command<I>): Command<unknown> => definition;

/** The operator acts inside one organization at a time, with the rights a key of it has. */
const operator = (services: Services, organizationId: string): Ctx => ({ services, organizationId, actor: OPERATOR });

function parse(args: string[], count: number, options: Record<string, { type: 'string' }> = {}) {
  let parsed;
  try {
    parsed = parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  if (parsed.positionals.length !== count) {
    throw new UsageError(`expected ${count} argument(s), got ${parsed.positionals.length}`);
  }
  return { values: parsed.values as Record<string, string | undefined>, positionals: parsed.positionals };
}

const INT32_MAX = 2_147_483_647;

const commands: Record<string, Command<unknown>> = {
  'org create': command({
    prepare(args) {
      const { values, positionals } = parse(args, 1, { 'monthly-event-cap': { type: 'string' } });
      const rawCap = values['monthly-event-cap'];
      if (rawCap !== undefined && (!/^\d+$/.test(rawCap) || Number(rawCap) > INT32_MAX)) {
        throw new UsageError(`--monthly-event-cap must be a whole number from 0 to ${INT32_MAX}, got ${JSON.stringify(rawCap)}`);
      }
      if (!positionals[0]!.trim()) throw new UsageError('the organization name must not be empty');
      return { name: positionals[0]!, monthlyEventCap: rawCap === undefined ? null : Number(rawCap) };
    },
    run: (services, input) => createOrganization({ ctx: { services, actor: OPERATOR }, input }),
  }),
  'key create': command({
    prepare: (args) => parse(args, 1).positionals[0]!,
    async run(services, organizationId) {
      // operations.md fixes this output; a key made here has no name.
      const { id, key, prefix } = await createKey({ ctx: operator(services, organizationId), input: undefined });
      return { id, key, prefix };
    },
  }),
  'key list': command({
    prepare: (args) => parse(args, 1).positionals[0]!,
    async run(services, organizationId) {
      // An operator's typo deserves an error, not an empty list.
      if (!(await lookUpOrganization(services.sql, organizationId))) throw new NotFound('Organization');
      const keys = await listKeys({ ctx: operator(services, organizationId), input: undefined });
      // operations.md fixes these fields; names are a dashboard matter.
      return { keys: keys.map(({ id, prefix, createdAt, lastUsedAt, revokedAt }) => ({ id, prefix, createdAt, lastUsedAt, revokedAt })) };
    },
  }),
  'key revoke': command({
    prepare: (args) => parse(args, 1).positionals[0]!,
    async run(services, keyId) {
      const organizationId = await findKeyOrganization(services.sql, keyId);
      if (!organizationId) throw new NotFound('API key');
      return revokeKey({ ctx: operator(services, organizationId), input: { keyId } });
    },
  }),
  'user create': command({
    async prepare(args) {
      const { values, positionals } = parse(args, 1, { org: { type: 'string' } });
      if (!values.org) throw new UsageError('--org <orgId> is required');
      return { email: positionals[0]!, organizationId: values.org, password: await readPassword() };
    },
    run: (services, input) => createAccountAsOperator({ services, input }),
  }),
};

/** `send` talks to a running server over HTTP; it never opens the database. */
async function sendCommand(args: string[]): Promise<void> {
  const { SendUsageError, prepareSend, send } = await import('./send.ts');
  let request;
  try {
    request = await prepareSend(args, process.env);
  } catch (error) {
    if (error instanceof SendUsageError) fail(`${error.message}\n\n${USAGE}`, 2);
    throw error;
  }
  const event = await send(request).catch((error: unknown) => fail(error instanceof Error ? error.message : String(error)));
  process.stdout.write(`${JSON.stringify(event)}\n`);
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
  if (first === 'serve' && second === undefined) {
    const { serve } = await import('../server.ts');
    return serve();
  }
  if (first === 'send') return sendCommand(argv.slice(1));
  if (first === 'backup' || first === 'restore') return backupOrRestore(first, argv.slice(1));
  const chosen = commands[`${first} ${second ?? ''}`];
  if (!chosen) fail(`unknown command "${argv.slice(0, 2).join(' ')}"\n\n${USAGE}`, 2);

  let input: unknown;
  let config;
  try {
    input = await chosen.prepare(rest);
    config = loadConfig();
  } catch (error) {
    if (error instanceof UsageError) fail(`${error.message}\n\n${USAGE}`, 2);
    fail(error instanceof ConfigError ? error.message : String(error));
  }

  const log = createLogger(process.env.LOG_LEVEL ?? 'silent');
  const db = await openDatabase(config, { attach: true, poolSize: 2 }).catch((error: unknown) =>
    fail(`cannot open the database: ${error instanceof Error ? error.message : String(error)}`),
  );
  const { services, close } = await createServices(config, db.sql, log, { listen: false });
  let result: unknown;
  let failure: unknown;
  try {
    result = await chosen.run(services, input);
  } catch (error) {
    failure = error;
  } finally {
    await close();
    await db.close();
  }
  if (failure) fail(failure instanceof Error ? failure.message : JSON.stringify(failure));
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

async function backupOrRestore(name: 'backup' | 'restore', args: string[]): Promise<void> {
  let result: unknown;
  try {
    const config = loadConfig();
    result = await (name === 'backup' ? backupCommand(args, config) : restoreCommand(args, config));
  } catch (error) {
    if (error instanceof BackupUsageError) fail(`${error.message}\n\n${USAGE}`, 2);
    fail(error instanceof Error ? error.message : String(error));
  }
  process.stdout.write(`${JSON.stringify(result)}\n`);
}
