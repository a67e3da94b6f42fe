import { BadRequest, Conflict, NotFound } from '../../http/errors.ts';
import { newId } from '../../lib/ids.ts';
import type { Db } from '../../db/client.ts';
import { findOrganization } from '../organizations/queries.ts';
import { hashPassword } from './password.ts';
import { insertUser } from './queries.ts';

const EMAIL = /^[^\s@]+@[^\s@]+$/;
export const MIN_PASSWORD_LENGTH = 8;

export interface CreateUserInput {
  organizationId: string;
  email: string;
  password: string;
}

/** `services` may be only a transaction to write in (first-run setup). */
export async function createUser({ services, input }: { services: { sql: Db }; input: CreateUserInput }): Promise<{ id: string; email: string }> {
  const email = input.email.trim();
  if (!EMAIL.test(email) || email.length > 254) throw new BadRequest('email is not a valid address');
  if (input.password.length < MIN_PASSWORD_LENGTH) {
    throw new BadRequest(`password must be at least ${MIN_PASSWORD_LENGTH} characters`);
  }
  if (!(await findOrganization(services.sql, input.organizationId))) throw new NotFound('Organization');
  const id = newId(16);
  const inserted = await insertUser(services.sql, {
    id,
    organizationId: input.organizationId,
    email,
    passwordHash: await hashPassword(input.password),
  });
  if (!inserted) throw new Conflict('A user with this email already exists');
  return { id, email };
}
