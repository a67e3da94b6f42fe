import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config.ts';
import { SESSION_COOKIE, SESSION_LIFETIME_SECONDS, isWellFormedToken } from './sessionToken.ts';

/** Secure whenever the browser reached us over https, directly or through a proxy. */
function secure(request: FastifyRequest, config: Config): boolean {
  return request.protocol === 'https' || config.baseUrl.startsWith('https:');
}

export function readSessionToken(request: FastifyRequest): string | undefined {
  const value = request.cookies?.[SESSION_COOKIE];
  return isWellFormedToken(value) ? value : undefined;
}

/** Kept by the browser for the session's absolute lifetime; the server enforces both expiries. */
export function setSessionCookie(reply: FastifyReply, config: Config, token: string): void {
  reply.setCookie(SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: 'lax',
    path: '/',
    secure: secure(reply.request, config),
    maxAge: SESSION_LIFETIME_SECONDS,
  });
}

export function clearSessionCookie(reply: FastifyReply, config: Config): void {
  reply.clearCookie(SESSION_COOKIE, { httpOnly: true, sameSite: 'lax', path: '/', secure: secure(reply.request, config) });
}
