import type { InstallationCtx, Role } from '../../context.ts';
import { InvalidInput, Conflict, NotFound } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import type { Db } from '../../db/client.ts';
import { lookUpOrganization } from '../organizations/organizationRecord.ts';
import { hashPassword } from './password.ts';
import { insertAccount } from './queries.ts';

const EMAIL = /^[^\s@]+@[^\s@]+$/;

/** The address as it is stored, or a 400 when it is not one. */
export function validEmail(input: string): string {
  const email = input.trim();
  if (!EMAIL.test(email) || email.length > 254) throw new InvalidInput('email is not a valid address');
  return email;
}
const MIN_PASSWORD_LENGTH = 8;

/** A new password (an account's first, or a reset's): 400 when it is too short. */
export function checkNewPassword(password: string, field = 'password'): void {
  if (password.length < MIN_PASSWORD_LENGTH) throw new InvalidInput(`${field} must be at least ${MIN_PASSWORD_LENGTH} characters`);
}

interface CreateAccountInput {
  organizationId: string;
  email: string;
  password: string;
  /** `eventlog user create` and first-run setup make owners; an invitation says which. */
  role?: Role;
}

/** `ctx.services` may be only a transaction to write in (first-run setup, accepting an invitation). */
export async function createAccount({ ctx, input }: { ctx: InstallationCtx<{ sql: Db }>; input: CreateAccountInput }): Promise<{ id: string; email: string }> {
  const { services } = ctx;
  const email = validEmail(input.email);
  checkNewPassword(input.password);
  if (!(await lookUpOrganization(services.sql, input.organizationId))) throw new NotFound('Organization');
  const id = newId(16);
  const inserted = await insertAccount(services.sql, {
    id,
    organizationId: input.organizationId,
    email,
    passwordHash: await hashPassword(input.password),
    role: input.role ?? 'owner',
  });
  if (!inserted) throw new Conflict('A user with this email already exists');
  return { id, email };
}
