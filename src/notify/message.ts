/**
 * One message of a route: its events grouped by kind, each with its one-line title and details, rendered as plain
 * text and as simple HTML (inline styles, no images, nothing fetched from elsewhere). Every text passes the secret
 * scrubber. A channel that caps its size asks for fewer events per group until it fits (`fitted`); the counts always
 * stay whole ("... and 480 more").
 */
import { scrubSecrets } from '../core/index.ts';
import type { EventKind, NotifyEvent } from './event-kind.ts';

export interface MessageItem {
  kind: string;
  id: string;
  at: number;
  title: string;
  details: Array<[label: string, value: string]>;
  data: unknown;
}

export interface MessageGroup {
  kind: string;
  heading: string;
  items: MessageItem[];
}

export interface Attachment {
  filename: string;
  content: Buffer;
}

export interface OutgoingMessage {
  /** The same for every attempt at this message (a repeat after a crash carries the same id). */
  id: string;
  route: string;
  account: string;
  subject: string;
  groups: MessageGroup[];
  total: number;
  attachments: Attachment[];
}

export interface BuildOptions {
  id: string;
  route: string;
  account: string;
  kinds: ReadonlyMap<string, EventKind>;
  /** How a path in the outbox is shown to people (NOTIFY_OUTBOX_SHOWN_AS). */
  showPath: (path: string) => string;
  /** Ids of the events whose attachment is attached (the others show their path). */
  attached?: ReadonlySet<string>;
}

const SUBJECT_MAX = 200;

export function buildMessage(events: readonly NotifyEvent[], o: BuildOptions): OutgoingMessage {
  const groups = new Map<string, MessageGroup>();
  for (const e of events) {
    const kind = o.kinds.get(e.kind);
    if (!kind) continue; // a kind this version does not know (written by a newer worker): left out
    const data = kind.data.parse(e.data);
    const details = kind
      .details(data)
      .map(([label, v]): [string, string] => [
        label,
        scrubSecrets(
          typeof v === 'string'
            ? v
            : `${o.showPath(v.path)}${o.attached?.has(e.id) && kind.attachment?.(data)?.path === v.path ? ' (attached)' : ''}`,
        ),
      ]);
    let g = groups.get(kind.name);
    if (!g) groups.set(kind.name, (g = { kind: kind.name, heading: '', items: [] }));
    g.items.push({ kind: kind.name, id: e.id, at: e.at, title: scrubSecrets(kind.title(data)), details, data: e.data });
  }
  const list = [...groups.values()];
  for (const g of list) g.heading = o.kinds.get(g.kind)!.count(g.items.length);
  const total = list.reduce((n, g) => n + g.items.length, 0);
  const subject =
    total === 1
      ? list[0]!.items[0]!.title
      : list.length === 1
        ? list[0]!.heading
        : `${total.toLocaleString('en')} events: ${list.map((g) => g.heading).join(', ')}`;
  return {
    id: o.id,
    route: o.route,
    account: o.account,
    subject: `[rfq-sync] ${subject.length > SUBJECT_MAX ? `${subject.slice(0, SUBJECT_MAX - 3)}...` : subject}`,
    groups: list,
    total,
    attachments: [],
  };
}

/** Per-group limits a capped channel tries, most first. */
const LIMITS = [Number.POSITIVE_INFINITY, 200, 50, 10, 3, 1, 0];

/** The first rendering (with the most events per group) that fits `maxBytes`; the last one tried otherwise. */
export function fitted<T>(render: (perGroup: number) => T, size: (t: T) => number, maxBytes: number): T {
  let out: T | undefined;
  for (const limit of LIMITS) {
    out = render(limit);
    if (size(out) <= maxBytes) return out;
  }
  return out!;
}

function when(at: number): string {
  return new Date(at).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function more(g: MessageGroup, shown: number): string | undefined {
  const rest = g.items.length - shown;
  return rest > 0 ? `... and ${rest.toLocaleString('en')} more (rfq-sync status, the reports and the log)` : undefined;
}

export function footer(m: OutgoingMessage): string {
  return `Sent by rfq-sync (account ${m.account}) for route ${m.route}; message ${m.id}.`;
}

/** Plain text, at most `perGroup` events listed per group. */
export function messageText(m: OutgoingMessage, perGroup = Number.POSITIVE_INFINITY): string {
  const out: string[] = [];
  for (const g of m.groups) {
    out.push(m.total > 1 ? g.heading : g.items[0]!.title, '');
    for (const item of g.items.slice(0, perGroup)) {
      if (m.total > 1) out.push(`- ${item.title} (${when(item.at)})`);
      for (const [label, value] of item.details) out.push(`    ${label}: ${value}`);
      if (m.total === 1) out.push(`    At: ${when(item.at)}`);
    }
    const rest = more(g, Math.min(perGroup, g.items.length));
    if (rest) out.push(rest);
    out.push('');
  }
  out.push('--', footer(m));
  return `${out.join('\n')}\n`;
}

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Simple HTML: headings, lists and small tables with inline styles; no image, no link, no script. */
export function messageHtml(m: OutgoingMessage, perGroup = Number.POSITIVE_INFINITY): string {
  const h = escapeHtml;
  const parts: string[] = [
    '<!DOCTYPE html><html><head><meta charset="utf-8"></head>',
    '<body style="font-family:Segoe UI,Arial,sans-serif;font-size:14px;color:#222">',
  ];
  for (const g of m.groups) {
    parts.push(`<h2 style="font-size:16px;margin:16px 0 8px">${h(m.total > 1 ? g.heading : g.items[0]!.title)}</h2>`);
    for (const item of g.items.slice(0, perGroup)) {
      if (m.total > 1)
        parts.push(`<p style="margin:8px 0 2px"><b>${h(item.title)}</b> <small>${h(when(item.at))}</small></p>`);
      const rows = [...item.details, ...(m.total === 1 ? [['At', when(item.at)] as [string, string]] : [])];
      parts.push(
        '<table style="border-collapse:collapse;margin:0 0 8px 12px">',
        ...rows.map(
          ([label, value]) =>
            `<tr><td style="padding:1px 12px 1px 0;color:#555;vertical-align:top">${h(label)}</td><td style="padding:1px 0">${h(value)}</td></tr>`,
        ),
        '</table>',
      );
    }
    const rest = more(g, Math.min(perGroup, g.items.length));
    if (rest) parts.push(`<p><i>${h(rest)}</i></p>`);
  }
  parts.push(`<hr><p style="color:#777;font-size:12px">${h(footer(m))}</p></body></html>`);
  return parts.join('\n');
}
