import type { Mail } from '../../ports.ts';
import { InvalidInput } from '../../lib/errors.ts';

const NOT_CONFIGURED = 'Email is not configured on this server: its operator must set SMTP_URL (and SMTP_FROM)';

/** A request that needs email answers 400 while SMTP_URL is unset (extensions.md, "Email"). */
export function requireEmail(mailer: Mail): void {
  if (!mailer.configured) throw new InvalidInput(NOT_CONFIGURED);
}
