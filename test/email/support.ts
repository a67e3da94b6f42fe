import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { waitUntil } from '../wait.ts';

/** A mail as the SMTP server received it, parsed as a mail client would. */
export interface ReceivedMail {
  from: string;
  to: string[];
  /** The authenticated user of the session. */
  user: string | undefined;
  raw: string;
  parsed: ParsedMail;
}

/** How the server answers the next DATA: accept (250), refuse with a reply code, or drop the connection. */
export type SmtpAnswer = 250 | { code: number; message?: string } | 'drop';

export interface SmtpTestServer {
  port: number;
  /** SMTP_URL for this server, with its user and password (and `tls=off`: it offers no STARTTLS). */
  url: string;
  user: string;
  password: string;
  received: ReceivedMail[];
  /** Answers for the coming messages in order; the last one repeats. */
  answers: SmtpAnswer[];
  /** Every message the server was offered, answered or not (DATA commands). */
  offered: number;
  /** How many times a client sent its credentials (AUTH), accepted or not. */
  authAttempts: number;
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedMail[]>;
  /** Mails to this address. */
  to(address: string): ReceivedMail[];
  waitForMailTo(address: string, count?: number, timeoutMs?: number): Promise<ReceivedMail[]>;
  close(): Promise<void>;
}

/**
 * A real SMTP server (smtp-server) on 127.0.0.1 that requires authentication, records every
 * message it accepts, parsed with mailparser, and answers as scripted. No STARTTLS: the test
 * server has no certificate, and nodemailer only upgrades when the server offers it.
 */
export async function startSmtpServer(answers: SmtpAnswer[] = [250], port = 0): Promise<SmtpTestServer> {
  const user = 'eventlog';
  const password = `p@ss:${Math.random().toString(36).slice(2)}`;
  const received: ReceivedMail[] = [];
  const state = { answers, offered: 0, authAttempts: 0 } as SmtpTestServer;
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    authMethods: ['PLAIN', 'LOGIN'],
    logger: false,
    onAuth(auth, _session, callback) {
      state.authAttempts++;
      if (auth.username === user && auth.password === password) return callback(null, { user });
      const refused = Object.assign(new Error('Authentication failed'), { responseCode: 535 });
      return callback(refused);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const list = state.answers;
        const answer = list[Math.min(state.offered++, list.length - 1)] ?? 250;
        if (answer === 'drop') {
          // The connection goes away before any reply: what a crashed relay looks like.
          for (const connection of server.connections) connection._socket.destroy();
          return;
        }
        if (answer !== 250) {
          callback(Object.assign(new Error(answer.message ?? `scripted ${answer.code}`), { responseCode: answer.code }));
          return;
        }
        const raw = Buffer.concat(chunks).toString('utf8');
        simpleParser(raw)
          .then((parsed) => {
            received.push({
              from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
              to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
              user: typeof session.user === 'string' ? session.user : undefined,
              raw,
              parsed,
            });
            callback(null, 'Queued');
          })
          .catch((error: Error) => callback(error));
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const bound = (server.server.address() as AddressInfo).port;
  const to = (address: string) => received.filter((mail) => mail.to.includes(address));
  return Object.assign(state, {
    port: bound,
    // No STARTTLS here, so the credentials may go in plain text only because the URL says so.
    url: `smtp://${user}:${encodeURIComponent(password)}@127.0.0.1:${bound}?tls=off`,
    user,
    password,
    received,
    to,
    waitFor: (count: number, timeoutMs = 10_000) => waitUntil(() => received.length >= count, { timeoutMs, message: `${count} mails` }).then(() => received),
    waitForMailTo: (address: string, count = 1, timeoutMs = 10_000) =>
      waitUntil(() => to(address).length >= count, { timeoutMs, message: `${count} mails to ${address}` }).then(() => to(address)),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}
