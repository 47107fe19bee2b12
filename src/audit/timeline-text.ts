/**
 * A trace as `rfq-sync trace` prints it: where the answer comes from and what the log covers (the folder, how it was
 * chosen, its days), then the steps, or a file name's drops, or the accounts to choose from, then what is pending
 * and what could not be read. Every text from an export, the service or the log goes through terminalText: no
 * control character reaches the terminal raw (an id carrying ESC sequences, a name carrying a line break).
 * Split in head, step and tail so `--all` streams its steps.
 */
import { terminalText as t } from '../core/index.ts';
import type { Timeline, TimelineStep } from './timeline.ts';

const MATCHES = 'an external_id, profile/key, RFQ number or _id, file name or sha256';

/** What the log covers, in one line. */
export function coverageLine(l: Timeline['log']): string {
  const where = `audit log ${t(l.folder)}${l.setting ? ` (${t(l.setting)})` : ''}`;
  if (!l.days) return `${where}: no file`;
  const days = l.days.first === l.days.last ? l.days.first : `${l.days.first} to ${l.days.last}`;
  return `${where}: ${days} (${l.days.count} day(s), ${l.files} file(s) of ${l.hosts.length} host(s))`;
}

/** The lines before the steps. */
export function formatHead(tl: Timeline): string[] {
  const out: string[] = [];
  out.push(
    tl.source.redis === 'up'
      ? `trace ${t(tl.query)}: from the audit log and Redis's current state`
      : `trace ${t(tl.query)}: Redis is down (${t(tl.source.reason)}); answered from the audit log alone`,
  );
  out.push(coverageLine(tl.log));
  if (tl.answer === 'nothing') {
    out.push(`nothing in the audit log names "${t(tl.query)}" (${MATCHES})`);
    for (const r of tl.redis ?? []) out.push(`Redis: ${t(r)}`);
    return out;
  }
  if (tl.answer === 'accounts') {
    out.push(
      `"${t(tl.query)}" is named in the log of ${tl.accounts!.length} sourcing accounts: ${tl
        .accounts!.map((a) => `${t(a.account || '(none)')} (${a.lines} line(s))`)
        .join(', ')}; choose one: rfq-sync trace ${t(tl.query)} --account ${t(tl.accounts![0]!.account)}`,
    );
    return out;
  }
  if (tl.otherAccounts?.length)
    out.push(
      `account ${t(tl.account)} (the log of ${tl.otherAccounts.map(t).join(', ')} also names it: --account to see theirs)`,
    );
  if (tl.answer === 'summary') {
    const s = tl.summary!;
    out.push(
      `${t(s.file)}: ${s.requisitions} requisitions in ${s.total} file(s) of that name; newest first (rfq-sync trace <sha256> for one file's steps, --since YYYY-MM-DD for the recent ones, --all for every step):`,
    );
    for (const d of s.drops)
      out.push(
        `  ${d.takenAt}  ${d.sha256.slice(0, 16)}  ${t(d.host).padEnd(12)} ${d.requisitions} requisition(s), ${d.held} held, ${d.rfqs} RFQ(s), ${d.awards} award(s)`,
      );
    if (s.next !== undefined) out.push(`  ... ${s.total - s.next} older file(s) of that name not shown`);
    return out;
  }
  out.push(
    `requisition(s): ${tl.requisitions.map(t).join(', ') || '-'}; RFQ(s): ${tl.rfqIds.join(', ') || '-'}; file(s): ${tl.files.map(t).join(', ') || '-'}`,
  );
  return out;
}

/** One step, and the files it names. */
export function formatStep(s: TimelineStep): string[] {
  const out = [`${t(s.at)}  ${t(s.event).padEnd(20)} ${t(s.summary)}`];
  for (const [role, path] of Object.entries(s.files ?? {})) out.push(`${' '.repeat(26)}${t(role)}: ${t(path)}`);
  return out;
}

/** The lines after the steps: the page, what is pending, what could not be read. */
export function formatTail(tl: Timeline): string[] {
  const out: string[] = [];
  if (tl.answer === 'timeline') {
    if (tl.page?.next !== undefined)
      out.push(
        `steps ${tl.page.from + 1} to ${tl.page.next} of ${tl.page.total} shown: --all for every step, --since YYYY-MM-DD for the recent ones`,
      );
    if (tl.steps.length === 0 && !tl.page) out.push('no step in the time asked for');
    if (tl.pendingUnknown) out.push(`pending: not worked out (${tl.pendingUnknown})`);
    else out.push(tl.pending.length ? 'pending:' : 'pending: nothing (the award is final)');
    for (const p of tl.pending) out.push(`  ${t(p)}`);
  }
  const l = tl.log;
  if (l.unreadable)
    out.push(
      `warning: ${l.unreadable} line(s) of the audit log could not be read (torn, or not a line of the log) and were skipped: ${l.unreadableAt.map(t).join(', ')}`,
    );
  if (l.missing)
    out.push(
      `warning: ${l.missing} line(s) are missing from the audit log (numbers a writing process gave that no file holds)`,
    );
  return out;
}

/** The whole answer as `trace` prints it. */
export function formatTimeline(tl: Timeline): string {
  return [...formatHead(tl), ...tl.steps.flatMap(formatStep), ...formatTail(tl)].join('\n');
}
