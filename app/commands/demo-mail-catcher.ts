/**
 * The demo's SMTP catcher: a mail server on a free loopback port that accepts every message and keeps it as a `.eml`
 * file (open it with any mail client), so the demo shows the notifications without sending a mail anywhere.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SMTPServer } from 'smtp-server';

export interface MailCatcher {
  port: number;
  dir: string;
  count(): number;
  close(): Promise<void>;
}

export async function startMailCatcher(dir: string): Promise<MailCatcher> {
  await mkdir(dir, { recursive: true });
  let n = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const to = session.envelope.rcptTo.map((r) => r.address.replace(/[^A-Za-z0-9._-]+/g, '_')).join('+');
        const name = `${String(++n).padStart(3, '0')}-${to}.eml`;
        writeFile(join(dir, name), Buffer.concat(chunks)).then(
          () => cb(),
          (err: Error) => cb(err),
        );
      });
    },
  });
  server.on('error', () => undefined);
  await new Promise<void>((res) => server.listen(0, '127.0.0.1', () => res()));
  return {
    port: (server.server.address() as { port: number }).port,
    dir,
    count: () => n,
    close: () => new Promise<void>((res) => server.close(() => res())),
  };
}
