/**
 * Servers that never finish an answer, for the send deadline of the notification channels: an SMTP server that greets
 * and then trickles its EHLO reply one byte a second, forever (or never says anything at all), and an HTTP receiver
 * that trickles its status line the same way. Built on node's net module, on loopback, free ports. Each keeps its
 * connections: when they opened and when the client closed them (the attempt was given up).
 */
import { createServer, type Socket } from 'node:net';

export interface StallConnection {
  openedAt: number;
  /** The client ended or dropped the connection. */
  closedAt?: number;
  /** The client sent something (a request, EHLO). */
  spoke: boolean;
}

export interface StallingServer {
  port: number;
  url: string;
  connections: StallConnection[];
  close(): Promise<void>;
}

/**
 * `smtp-trickle`: `220` at once, then the EHLO reply one byte a second, a multi-line reply without end.
 * `smtp-silent`: accepts the connection and never sends a byte (no greeting).
 * `http-trickle`: reads the request, then sends its status line one byte a second, without end.
 */
export async function startStallingServer(
  mode: 'smtp-trickle' | 'smtp-silent' | 'http-trickle',
): Promise<StallingServer> {
  const connections: StallConnection[] = [];
  const sockets = new Set<Socket>();
  const endless = mode === 'http-trickle' ? 'HTTP/1.1 200 OK\r\nX-Stall: ' : '250-stall.test at your service\r\n';
  const server = createServer((socket) => {
    sockets.add(socket);
    const c: StallConnection = { openedAt: Date.now(), spoke: false };
    connections.push(c);
    let timer: NodeJS.Timeout | undefined;
    let at = 0;
    const trickle = () => {
      timer ??= setInterval(() => {
        if (socket.destroyed) return;
        const s = mode === 'http-trickle' && at >= endless.length ? 'x' : endless[at % endless.length]!;
        at++;
        socket.write(s);
      }, 1_000);
    };
    const closed = () => {
      c.closedAt ??= Date.now();
      clearInterval(timer);
      sockets.delete(socket);
    };
    socket.on('end', closed);
    socket.on('close', closed);
    socket.on('error', () => undefined);
    if (mode === 'smtp-trickle') socket.write('220 stall.test ESMTP\r\n');
    socket.on('data', (d: Buffer) => {
      c.spoke = true;
      if (mode === 'smtp-trickle' && /^(EHLO|HELO)/im.test(d.toString('latin1'))) trickle();
      if (mode === 'http-trickle') trickle();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    connections,
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}
