import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';

// A local push service (a browser vendor's push endpoint on 127.0.0.1) and what a browser holds to
// read what it receives: the push tests and the notification preference tests share them.

export interface Certificate {
  key: string;
  cert: string;
  /** The certificate as a file, for a server process's NODE_EXTRA_CA_CERTS; removed by remove(). */
  certFile: string;
  remove(): void;
}

/** A self-signed certificate for 127.0.0.1, made for this run. */
export function selfSignedCertificate(): Certificate {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eventlog-push-'));
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
      '-keyout',
      path.join(dir, 'key.pem'),
      '-out',
      path.join(dir, 'cert.pem'),
    ],
    { stdio: 'ignore' },
  );
  return {
    key: fs.readFileSync(path.join(dir, 'key.pem'), 'utf8'),
    cert: fs.readFileSync(path.join(dir, 'cert.pem'), 'utf8'),
    certFile: path.join(dir, 'cert.pem'),
    remove: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

export interface PushRequest {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

export interface PushService {
  origin: string;
  received: PushRequest[];
  close(): Promise<void>;
}

/** Stands in for a browser vendor's push service: HTTPS on 127.0.0.1, answers as scripted (the last status repeats). */
export async function startPushService(tls: Pick<Certificate, 'key' | 'cert'>, statuses: number[] = [201]): Promise<PushService> {
  const received: PushRequest[] = [];
  const server = https.createServer({ key: tls.key, cert: tls.cert }, (request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ path: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks) });
      response.writeHead(statuses[Math.min(received.length - 1, statuses.length - 1)] ?? 201).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** What a browser holds: the subscription's ECDH key pair and auth secret. */
export function browserKeys() {
  const ecdh = crypto.createECDH('prime256v1');
  ecdh.generateKeys();
  const auth = crypto.randomBytes(16);
  return { ecdh, auth, keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') } };
}

/** RFC 8291 + RFC 8188 (aes128gcm), decrypted the way a browser does, with node's crypto only. */
export function decrypt(body: Buffer, ecdh: crypto.ECDH, auth: Buffer): string {
  const salt = body.subarray(0, 16);
  const recordSize = body.readUInt32BE(16);
  const keyIdLength = body[20] as number;
  const serverPublicKey = body.subarray(21, 21 + keyIdLength);
  const records = body.subarray(21 + keyIdLength);
  assert.equal(keyIdLength, 65);
  assert.ok(records.length <= recordSize);

  const shared = ecdh.computeSecret(serverPublicKey);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), ecdh.getPublicKey(), serverPublicKey]);
  const ikm = Buffer.from(crypto.hkdfSync('sha256', shared, auth, keyInfo, 32));
  const cek = Buffer.from(crypto.hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
  const nonce = Buffer.from(crypto.hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
  const decipher = crypto.createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(records.subarray(records.length - 16));
  const padded = Buffer.concat([decipher.update(records.subarray(0, records.length - 16)), decipher.final()]);
  // The last record ends with the delimiter 0x02, then zero padding.
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  assert.equal(padded[end], 2);
  return padded.subarray(0, end).toString('utf8');
}
