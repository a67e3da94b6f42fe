import crypto from 'node:crypto';
import type { Reply, TestApp, TestOrg } from './helpers.ts';
import { createAccount } from '../src/features/accounts/createAccount.ts';

export const PASSWORD = 'correct horse battery';

/** A dashboard user of `org`, signed in through the API: its cookie and CSRF token. */
export interface Browser {
  userId: string;
  email: string;
  cookie: string;
  csrfToken: string;
  signIn: Reply;
  get(url: string, headers?: Record<string, string>): Promise<Reply>;
  /** A write with the session cookie and, unless `csrf` says otherwise, the right CSRF token. */
  post(url: string, body?: unknown, options?: { csrf?: string | null; headers?: Record<string, string> }): Promise<Reply>;
}

export const uniqueEmail = () => `user-${crypto.randomUUID()}@example.com`;

export async function addUser(t: TestApp, org: TestOrg, email = uniqueEmail(), password = PASSWORD) {
  return createAccount({ ctx: t.operator, input: { organizationId: org.id, email, password } });
}

export function sessionCookieOf(reply: Pick<Reply, 'headers'>): string | undefined {
  const header = reply.headers['set-cookie'];
  const lines = Array.isArray(header) ? header : header ? [String(header)] : [];
  const line = lines.find((l) => l.startsWith('eventlog_session='));
  return line?.split(';')[0];
}

export function browserFor(t: TestApp, cookie: string, csrfToken: string): Pick<Browser, 'get' | 'post'> {
  return {
    get: (url, headers = {}) => t.request({ method: 'GET', url, headers: { cookie, ...headers } }),
    post: (url, body, { csrf, headers = {} } = {}) => {
      const token = csrf === undefined ? csrfToken : csrf;
      return t.request({
        method: 'POST',
        url,
        ...(body === undefined ? {} : { body }),
        headers: { cookie, ...(token === null ? {} : { 'x-csrf-token': token }), ...headers },
      });
    },
  };
}

export async function signInAs(t: TestApp, org: TestOrg): Promise<Browser> {
  const email = uniqueEmail();
  const user = await addUser(t, org, email);
  const signIn = await t.request({ method: 'POST', url: '/api/session', body: { email, password: PASSWORD } });
  if (signIn.status !== 200) throw new Error(`sign-in failed: ${signIn.status} ${JSON.stringify(signIn.body)}`);
  const cookie = sessionCookieOf(signIn);
  if (!cookie) throw new Error('sign-in set no session cookie');
  const csrfToken = signIn.body.csrfToken as string;
  return { userId: user.id, email, cookie, csrfToken, signIn, ...browserFor(t, cookie, csrfToken) };
}
