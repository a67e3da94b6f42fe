import type { Role } from '../../src/context.ts';
import { type Browser, PASSWORD, browserFor, sessionCookieOf, uniqueEmail } from '../signedIn.ts';
import type { Reply, TestApp } from '../helpers.ts';

/** The token of an invitation url: its last path segment. */
export const tokenOf = (url: string) => url.split('/').pop()!;

export async function invite(owner: Pick<Browser, 'post'>, email = uniqueEmail(), role: Role = 'member'): Promise<Reply> {
  return owner.post('/api/invitations', { email, role });
}

export function accept(t: TestApp, token: string, password = PASSWORD): Promise<Reply> {
  return t.request({ method: 'POST', url: '/api/invitations/accept', body: { token, password } });
}

/** Invites `email` with `role` and accepts: the new person, signed in. */
export async function joined(t: TestApp, owner: Pick<Browser, 'post'>, role: Role = 'member', email = uniqueEmail()): Promise<Browser> {
  const invitation = await invite(owner, email, role);
  if (invitation.status !== 201) throw new Error(`inviting failed: ${invitation.status} ${JSON.stringify(invitation.body)}`);
  const reply = await accept(t, tokenOf(invitation.body.url));
  if (reply.status !== 200) throw new Error(`accepting failed: ${reply.status} ${JSON.stringify(reply.body)}`);
  const cookie = sessionCookieOf(reply)!;
  const csrfToken = reply.body.csrfToken as string;
  return { userId: reply.body.user.id, email, cookie, csrfToken, signIn: reply, ...browserFor(t, cookie, csrfToken) };
}

/** The role the server gives this session now (GET /api/organization says the caller's). */
export async function roleOf(browser: Pick<Browser, 'get'>): Promise<string | null> {
  return (await browser.get('/api/organization')).body.role;
}
