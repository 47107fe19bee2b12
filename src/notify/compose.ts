/**
 * A route's message from its events, as its channel will send it: grouped and worded (message.ts), paths shown as
 * people reach the outbox (NOTIFY_OUTBOX_SHOWN_AS), and the files the events name attached (the comparison workbook)
 * while their total stays within the channel's cap; a file above it, or gone meanwhile, is named by its path.
 */
import { readFile, stat } from 'node:fs/promises';
import { basename, isAbsolute, relative } from 'node:path';
import type { NotifyEvent } from './event-kind.ts';
import { buildMessage, type Attachment, type OutgoingMessage } from './message.ts';
import { EVENT_KINDS } from './notify-settings.ts';

export interface ComposeOptions {
  id: string;
  route: string;
  account: string;
  outbox: string;
  shownAs: string | undefined;
  attachMaxBytes: number;
}

export async function composeMessage(events: readonly NotifyEvent[], o: ComposeOptions): Promise<OutgoingMessage> {
  const { attachments, attached } = await attachmentsOf(events, o.attachMaxBytes);
  const message = buildMessage(events, {
    id: o.id,
    route: o.route,
    account: o.account,
    kinds: EVENT_KINDS,
    showPath: (p) => shownPath(p, o.outbox, o.shownAs),
    attached,
  });
  return { ...message, attachments };
}

/** A path under the outbox as people reach it (`\\server\share\outbox\comparisons\x.xlsx`), else as it is. */
export function shownPath(path: string, outbox: string, shownAs: string | undefined): string {
  if (!shownAs) return path;
  const rel = relative(outbox, path);
  if (!rel || rel.startsWith('..') || isAbsolute(rel)) return path;
  const sep = shownAs.includes('\\') && !shownAs.includes('/') ? '\\' : '/';
  return `${shownAs.replace(/[\\/]+$/, '')}${sep}${rel.split(/[\\/]/).join(sep)}`;
}

async function attachmentsOf(
  events: readonly NotifyEvent[],
  maxBytes: number,
): Promise<{ attachments: Attachment[]; attached: Set<string> }> {
  const attachments: Attachment[] = [];
  const attached = new Set<string>();
  let total = 0;
  if (maxBytes <= 0) return { attachments, attached };
  for (const e of events) {
    const kind = EVENT_KINDS.get(e.kind);
    const parsed = kind?.attachment ? kind.data.safeParse(e.data) : undefined;
    const path = parsed?.success ? kind!.attachment!(parsed.data)?.path : undefined;
    if (!path) continue;
    const st = await stat(path).catch(() => undefined);
    if (!st?.isFile() || total + st.size > maxBytes) continue;
    const content = await readFile(path).catch(() => undefined);
    if (!content || total + content.length > maxBytes) continue;
    total += content.length;
    attachments.push({ filename: basename(path), content });
    attached.add(e.id);
  }
  return { attachments, attached };
}
