/**
 * Receivers for the notification tests: a real SMTP server (smtp-server) with STARTTLS (a self-signed certificate
 * for localhost made with openssl, once per process) and AUTH, keeping every message it took and parsing it back with
 * mailparser; and a local HTTP receiver for the webhooks, keeping every request. Both on loopback, free ports.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer, type SMTPServerSession } from 'smtp-server';
import type { AppContext } from '../../app/runtime/worker-context.ts';
import type { Pipeline } from './pipeline.ts';
import { sleep } from './wait.ts';
import { makeTempDir } from './temp-dir.ts';

export interface TlsFixture {
  dir: string;
  keyFile: string;
  certFile: string;
  key: Buffer;
  cert: Buffer;
}

let tls: TlsFixture | undefined;

/** A key and self-signed certificate for localhost and 127.0.0.1 (the client trusts it as its CA: `ca_file`). */
export function localhostTls(): TlsFixture {
  if (tls) return tls;
  const dir = makeTempDir('rfq-notify-tls-'); // kept for the process (the fixture is cached), removed at its exit
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  const r = spawnSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '2',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=DNS:localhost,IP:127.0.0.1',
      '-keyout',
      'key.pem',
      '-out',
      'cert.pem',
    ],
    { cwd: dir, encoding: 'utf8' },
  );
  if (r.status !== 0) throw new Error(`openssl (needed for the SMTP STARTTLS tests): ${r.stderr || r.error?.message}`);
  const keyFile = join(dir, 'key.pem');
  const certFile = join(dir, 'cert.pem');
  tls = { dir, keyFile, certFile, key: readFileSync(keyFile), cert: readFileSync(certFile) };
  return tls;
}

export interface CaughtMail {
  from: string;
  to: string[];
  raw: Buffer;
  parsed: ParsedMail;
  /** The connection was upgraded with STARTTLS before the message. */
  secure: boolean;
  user: string | undefined;
}

export interface SmtpCatcher {
  port: number;
  mails: CaughtMail[];
  /** Messages whose data arrived in full (before the answer to DATA). */
  received: number;
  /** Hold the answer to DATA until `release` (a worker may be killed meanwhile); the data is kept as received. */
  holdNext(): { arrived: Promise<void>; release(): void };
  /** Answer DATA with this error until cleared (a server that is down for mail). */
  refuse(message: string | undefined): void;
  waitFor(n: number, timeoutMs?: number): Promise<CaughtMail[]>;
  close(): Promise<void>;
}

/** An SMTP server requiring STARTTLS before AUTH (smtp-server refuses AUTH on a plain connection by default). */
export async function startSmtpCatcher(o: { users?: Record<string, string> } = {}): Promise<SmtpCatcher> {
  const t = localhostTls();
  const mails: CaughtMail[] = [];
  let received = 0;
  let hold: { arrived: () => void; released: Promise<void> } | undefined;
  let refusal: string | undefined;
  const server = new SMTPServer({
    secure: false,
    key: t.key,
    cert: t.cert,
    authOptional: !o.users,
    authMethods: ['PLAIN', 'LOGIN'],
    logger: false,
    onAuth(auth, _session, cb) {
      if (o.users && o.users[auth.username ?? ''] === auth.password) return cb(null, { user: auth.username });
      return cb(new Error('Invalid username or password'));
    },
    onData(stream, session: SMTPServerSession, cb) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        void (async () => {
          if (refusal) return cb(Object.assign(new Error(refusal), { responseCode: 451 }));
          const raw = Buffer.concat(chunks);
          received++;
          const mail: CaughtMail = {
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            raw,
            parsed: await simpleParser(raw),
            secure: session.secure,
            user: typeof session.user === 'string' ? session.user : undefined,
          };
          mails.push(mail);
          const h = hold;
          if (h) {
            hold = undefined;
            h.arrived();
            await h.released;
          }
          cb();
        })();
      });
    },
  });
  server.on('error', () => undefined);
  await new Promise<void>((res) => server.listen(0, '127.0.0.1', () => res()));
  const port = (server.server.address() as { port: number }).port;
  return {
    port,
    mails,
    get received() {
      return received;
    },
    holdNext() {
      let arrived!: () => void;
      let release!: () => void;
      const a = new Promise<void>((r) => (arrived = r));
      hold = { arrived, released: new Promise<void>((r) => (release = r)) };
      return { arrived: a, release };
    },
    refuse(message) {
      refusal = message;
    },
    async waitFor(n, timeoutMs = 20_000) {
      const t0 = Date.now();
      while (mails.length < n) {
        if (Date.now() - t0 > timeoutMs) throw new Error(`${mails.length} of ${n} mails arrived in ${timeoutMs} ms`);
        await sleep(25);
      }
      return mails;
    },
    close: () => new Promise<void>((res) => server.close(() => res())),
  };
}

export interface ReceivedRequest {
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
  json: unknown;
}

export interface HttpReceiver {
  url: string;
  requests: ReceivedRequest[];
  /** How the next requests are answered (status, a delay before answering, a redirect). */
  answer(a: { status?: number; delayMs?: number; location?: string; body?: string }): void;
  waitFor(n: number, timeoutMs?: number): Promise<ReceivedRequest[]>;
  close(): Promise<void>;
}

export async function startHttpReceiver(): Promise<HttpReceiver> {
  const requests: ReceivedRequest[] = [];
  let how: { status?: number; delayMs?: number; location?: string; body?: string } = {};
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let json: unknown;
      try {
        json = JSON.parse(body);
      } catch {
        json = undefined;
      }
      requests.push({ path: req.url ?? '', headers: req.headers, body, json });
      const a = how;
      setTimeout(() => {
        if (res.destroyed) return;
        res.writeHead(a.status ?? 200, a.location ? { location: a.location } : {});
        res.end(a.body ?? 'ok');
      }, a.delayMs ?? 0);
    });
  });
  await new Promise<void>((res) => server.listen(0, '127.0.0.1', () => res()));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    answer(a) {
      how = a;
    },
    async waitFor(n, timeoutMs = 20_000) {
      const t0 = Date.now();
      while (requests.length < n) {
        if (Date.now() - t0 > timeoutMs)
          throw new Error(`${requests.length} of ${n} requests arrived in ${timeoutMs} ms`);
        await sleep(25);
      }
      return requests;
    },
    close: () =>
      new Promise<void>((res) => {
        server.closeAllConnections();
        server.close(() => res());
      }),
  };
}

/** A secret in a file of its own (the `*_file` options). */
export function secretFile(dir: string, name: string, value: string): string {
  const p = join(dir, name);
  writeFileSync(p, `${value}\n`);
  return p;
}

/**
 * A worker context of this test's data folder and prefix with these settings (the notification ones): against the
 * pipeline's sandbox, or, with `sandbox: false`, a service that is never called (intake and notifications only).
 */
export function notifyContext(
  p: Pipeline,
  extra: Record<string, string>,
  o: { sandbox?: boolean } = {},
): Promise<AppContext> {
  const service =
    o.sandbox === false
      ? { baseUrl: 'http://127.0.0.1:9', token: 'unused' }
      : { baseUrl: p.sandboxUrl, token: p.token };
  return p.context({ redisUrl: p.redisUrl, prefix: p.prefix, dir: p.data.root, ...service, extra });
}
