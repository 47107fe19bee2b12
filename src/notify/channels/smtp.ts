/**
 * E-mail over SMTP (nodemailer): STARTTLS by default (`security: starttls`, required: a server that does not offer it
 * is refused), or TLS from the first byte (`tls`, port 465), or none (`none`: only without AUTH, or on a loopback
 * address). AUTH with `user` and `password` (or `password_file`, like the other secrets). A private CA may be given
 * (`ca_file`). Each message is plain text plus simple HTML, the route's `to` as recipients, attachments up to
 * `attach_max_bytes` in total, and a Message-ID that is the same when a crash makes it go out twice.
 */
import { readFileSync } from 'node:fs';
import { createTransport } from 'nodemailer';
import { z } from 'zod';
import { NotifyError, scrubSecrets } from '../../core/index.ts';
import { defineChannelKind, MIB, secretOption, whole } from '../channel.ts';
import { shortHash } from '../event-kind.ts';
import { fitted, messageHtml, messageText } from '../message.ts';

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

const options = z
  .strictObject({
    host: z.string().min(1),
    /** Default 587, or 465 with `security: tls`. */
    port: whole(1, 65_535).optional(),
    security: z.enum(['starttls', 'tls', 'none']).default('starttls'),
    user: z.string().min(1).optional(),
    password: z.string().optional(),
    password_file: z.string().optional(),
    /** The sender, e.g. `rfq-sync <rfq-sync@example.com>`. */
    from: z.string().min(3),
    /** PEM file of a CA to trust besides the system's (an internal mail relay). */
    ca_file: z.string().optional(),
    timeout_ms: whole(100, 300_000).default(30_000),
    /** Largest total of attachments per message; a workbook above it is named by its path. Default 10 MiB. */
    attach_max_bytes: whole(0, 100 * MIB).default(10 * MIB),
    /** Largest text plus HTML body: fewer events are listed until it fits. Default 1 MiB. */
    max_bytes: whole(1024, 50 * MIB).default(MIB),
  })
  .transform((o, c) => {
    const password = secretOption(o, 'password', c, false);
    if (password !== undefined && o.user === undefined)
      c.addIssue({ code: 'custom', path: ['user'], message: 'is required with a password' });
    if (o.user !== undefined && password === undefined && o.password_file === undefined)
      c.addIssue({ code: 'custom', path: ['password'], message: 'password or password_file is required with a user' });
    if (o.security === 'none' && o.user !== undefined && !LOOPBACK.has(o.host))
      c.addIssue({
        code: 'custom',
        path: ['security'],
        message:
          'none would send the password unencrypted: use starttls or tls (none only without AUTH or on loopback)',
      });
    let ca: Buffer | undefined;
    if (o.ca_file !== undefined) {
      try {
        ca = readFileSync(o.ca_file);
      } catch (err) {
        const why = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
        c.addIssue({ code: 'custom', path: ['ca_file'], message: `cannot read ${o.ca_file}: ${why}` });
      }
    }
    return { ...o, password, ca, port: o.port ?? (o.security === 'tls' ? 465 : 587) };
  });

export default defineChannelKind({
  options,
  needsRecipients: true,
  attachMaxBytes: (o) => o.attach_max_bytes,
  timeoutMs: (o) => o.timeout_ms,
  create(o, { name }) {
    const transport = createTransport({
      host: o.host,
      port: o.port,
      secure: o.security === 'tls',
      requireTLS: o.security === 'starttls',
      ignoreTLS: o.security === 'none',
      ...(o.user !== undefined ? { auth: { user: o.user, pass: o.password ?? '' } } : {}),
      tls: { minVersion: 'TLSv1.2', ...(o.ca ? { ca: [o.ca] } : {}) },
      connectionTimeout: o.timeout_ms,
      greetingTimeout: o.timeout_ms,
      socketTimeout: o.timeout_ms,
      // a send given up (its deadline) lets go of the connection within a second, answered or not
      socketCloseTimeout: 1_000,
      disableFileAccess: true,
      disableUrlAccess: true,
    });
    const domain = /@([^>\s]+)>?\s*$/.exec(o.from)?.[1] ?? 'rfq-sync.invalid';
    return {
      async send(m, to, signal) {
        if (!to?.length) throw new NotifyError(name, `route ${m.route} names no recipient (to)`);
        const body = fitted(
          (limit) => ({ text: messageText(m, limit), html: messageHtml(m, limit) }),
          (b) => Buffer.byteLength(b.text) + Buffer.byteLength(b.html),
          o.max_bytes,
        );
        try {
          await transport.sendMail({
            from: o.from,
            to: [...to],
            subject: m.subject,
            ...body,
            attachments: m.attachments.map((a) => ({ filename: a.filename, content: a.content })),
            messageId: `<rfq-sync.${shortHash(`${m.account}|${m.id}`)}@${domain}>`,
            headers: { 'Auto-Submitted': 'auto-generated', 'X-Auto-Response-Suppress': 'All' },
            // the whole exchange: nodemailer's time-outs bound each wait for a byte, not the send (a server may
            // trickle its answer); the deadline (send-deadline.ts) aborts it, and the connection is closed at once
            ...(signal ? { signal } : {}),
          });
        } catch (err) {
          const e = err as Error & { code?: string; responseCode?: number };
          throw new NotifyError(
            name,
            `the mail server did not take the message${e.responseCode ? ` (SMTP ${e.responseCode})` : e.code ? ` (${e.code})` : ''}: ${scrubSecrets(e.message)}`,
            { cause: err },
          );
        }
      },
      async close() {
        transport.close();
      },
    };
  },
});
