import nodemailer, { type Transporter } from 'nodemailer';
import type SMTPPool from 'nodemailer/lib/smtp-pool/index.js';
import type { FastifyBaseLogger } from 'fastify';
import type { SmtpSettings } from '../../smtpSettings.ts';
import type { MailResult, OutgoingMail } from '../../ports.ts';

/** Connect, greeting and socket inactivity bounds per message: a stuck server cannot hold a lease. */
const TIMEOUT_MS = 10_000;
/** How much of the server's reply an attempt keeps (the attempt log shows it). */
const MAX_RESPONSE = 1024;

/**
 * The process's one pooled SMTP transport (nodemailer), built from SMTP_URL. Without SMTP_URL it
 * exists but is not `configured`, and every send fails without trying. Each send answers with the
 * SMTP reply code (250 when accepted, the 4xx or 5xx that refused it, null when no reply came)
 * and whether repeating it may help: a 4xx, a refused, dropped or timed-out connection may; a
 * 5xx may not. The URL's password never appears in what it answers or logs.
 */
export class Mailer {
  readonly configured: boolean;
  private readonly transport: Transporter<SMTPPool.SentMessageInfo> | undefined;

  constructor(
    private readonly settings: SmtpSettings | undefined,
    private readonly log: FastifyBaseLogger,
  ) {
    this.configured = settings !== undefined;
    if (!settings) return;
    const options: SMTPPool.Options = {
      pool: true,
      host: settings.host,
      port: settings.port,
      secure: settings.secure,
      requireTLS: settings.requireTls,
      connectionTimeout: TIMEOUT_MS,
      greetingTimeout: TIMEOUT_MS,
      socketTimeout: TIMEOUT_MS,
      maxConnections: 5,
      logger: false,
      debug: false,
      ...(settings.user !== undefined ? { auth: { user: settings.user, pass: settings.password ?? '' } } : {}),
    };
    this.transport = nodemailer.createTransport(options);
    // A pooled connection that fails while idle emits 'error'; without a listener it would crash the process.
    this.transport.on('error', (error: Error) => this.log.warn({ err: { message: this.scrub(error.message) } }, 'email: the SMTP connection failed'));
  }

  get from(): string {
    return this.settings?.from ?? '';
  }

  async send(mail: OutgoingMail): Promise<MailResult> {
    const started = performance.now();
    const took = () => Math.round(performance.now() - started);
    if (!this.transport || !this.settings) {
      return { status: null, error: 'Email is not configured (SMTP_URL is not set)', retryable: false, response: null, durationMs: 0 };
    }
    try {
      const info = await this.transport.sendMail({
        from: this.settings.from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        ...(mail.messageId ? { messageId: mail.messageId } : {}),
        ...(mail.headers ? { headers: mail.headers } : {}),
      });
      const response = this.scrub(info.response ?? '');
      return { status: replyCode(response) ?? 250, error: null, retryable: false, response: clip(response), durationMs: took() };
    } catch (caught) {
      const error = caught as { message?: string; responseCode?: number; response?: string; code?: string };
      const status = typeof error.responseCode === 'number' ? error.responseCode : null;
      const message = this.scrub(error.message ?? String(caught));
      // No reply code: the connection was refused, dropped or timed out, which may pass.
      const retryable = status === null ? !['EAUTH', 'EENVELOPE', 'ETLS'].includes(error.code ?? '') : status >= 400 && status < 500;
      return { status, error: clip(message), retryable, response: error.response ? clip(this.scrub(error.response)) : null, durationMs: took() };
    }
  }

  close(): void {
    this.transport?.close();
  }

  /** Belt and braces: whatever a library puts in an error, the password is not shown. */
  private scrub(text: string): string {
    const password = this.settings?.password;
    return password ? text.split(password).join('***') : text;
  }
}

function replyCode(response: string): number | null {
  const match = /^(\d{3})\b/.exec(response.trim());
  return match ? Number(match[1]) : null;
}

function clip(text: string): string {
  return text.length > MAX_RESPONSE ? text.slice(0, MAX_RESPONSE) : text;
}
