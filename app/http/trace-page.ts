/**
 * The lookup page of the operations endpoint, `GET /trace?q=<what>` ("Where is my requisition?", linked from the
 * dashboard's header): a search box and the same answer as `rfq-sync trace` (app/commands/trace.ts), as plain
 * server-rendered HTML with no script at all (its Content-Security-Policy allows none). Read-only. The lookup runs
 * off the worker's event loop, a few at once, each with a deadline (trace-lookup.ts, trace-threads.ts); past them
 * the page says so (503), and /healthz and the jobs never wait for it. An answer is bounded: a recurring file name
 * gives its files with their counts, a long timeline comes in pages (`from`), each under a cap of steps and bytes.
 * Every text is HTML-escaped with its control characters made visible (`\x1b`, `\n`). Paths under the outbox are
 * shown as people reach them (NOTIFY_OUTBOX_SHOWN_AS) and link there, each path segment encoded (a `#` in a
 * workbook's name is part of the name): an http(s) address as it is, a share (`\\server\share\outbox`) as a file:
 * link.
 */
import type { Request, Response } from 'express';
import { coverageLine, type Timeline } from '../../src/audit/index.ts';
import { LookupRefusedError, terminalText } from '../../src/core/index.ts';
import { shownPath } from '../../src/notify/index.ts';

/** What the page asks: the query, the page's first step (or file), the account chosen. */
export interface PageQuery {
  what: string;
  from?: number;
  account?: string;
}

export interface TraceLookup {
  /** The answer for `q` (with Redis's state, or from the log alone when Redis does not answer). */
  timeline(q: PageQuery): Promise<Timeline>;
  /** The outbox and NOTIFY_OUTBOX_SHOWN_AS, for the links to workbooks and award files. */
  outbox: string;
  shownAs?: string | undefined;
  /** End what the lookups run on (their threads), with the endpoint. */
  close?(): Promise<void>;
}

/** HTML text: markup escaped, control characters made visible. */
const escape = (s: unknown) =>
  terminalText(s).replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

/** Each segment of a path encoded on its own: `#`, `?` and `%` in a file's name stay part of it. */
const segments = (path: string) => path.split('/').map(encodeURIComponent).join('/');

/** Where a shown path links to: an address as it is, a share or a local path as a file: URL; else nothing. */
export function hrefOf(shown: string, shownAs: string | undefined): string | undefined {
  if (!shownAs) return undefined;
  const web = /^(https?:\/\/[^/]+)(\/.*)?$/i.exec(shown);
  if (web) return `${web[1]}${segments(web[2] ?? '')}`;
  if (shown.startsWith('\\\\')) return `file://${segments(shown.slice(2).replace(/\\/g, '/'))}`;
  if (shown.startsWith('/')) return `file://${segments(shown)}`;
  return undefined;
}

const STYLE = `body{font:14px/1.45 system-ui,sans-serif;margin:1.5rem auto;max-width:72rem;color:#1d2433;padding:0 1rem}
h1{font-size:1.35rem}form{margin:1rem 0}input[type=search]{width:28rem;padding:.35rem;font-size:1rem}
button{padding:.35rem .9rem;font-size:1rem}table{border-collapse:collapse;width:100%}
td,th{border-bottom:1px solid #dde;padding:.35rem .5rem;text-align:left;vertical-align:top}
th{background:#f3f4f8}.ev{font-family:ui-monospace,monospace;white-space:nowrap}.when{white-space:nowrap;color:#556}
.warn{background:#fff4d6;padding:.5rem .75rem;border-left:4px solid #e0a800}.files{font-size:.9em;color:#334}
ul.pending li{margin:.2rem 0}`;

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escape(title)}</title><style>${STYLE}</style></head><body>${body}</body></html>`;
}

function form(q: string): string {
  return `<h1>Where is my requisition?</h1><p><a href="/queues">Queues dashboard</a></p>
<form method="get" action="/trace" role="search"><label for="q">External id, requisition (profile/key), RFQ number or id, file name or sha256 </label>
<input type="search" id="q" name="q" value="${escape(q)}" required maxlength="300" autofocus> <button type="submit">Trace</button></form>`;
}

/** A link to the page for another query (a file's sha256, an account, the next page). */
function link(q: { what: string; from?: number; account?: string }, text: string): string {
  const p = new URLSearchParams({ q: q.what });
  if (q.account !== undefined) p.set('account', q.account);
  if (q.from) p.set('from', String(q.from));
  return `<a href="/trace?${escape(p.toString())}">${escape(text)}</a>`;
}

/** The answer as an HTML fragment. */
export function renderTimeline(t: Timeline, l: Pick<TraceLookup, 'outbox' | 'shownAs'>): string {
  const out: string[] = [];
  out.push(
    t.source.redis === 'up'
      ? `<p class="source">From the audit log and Redis's current state.</p>`
      : `<p class="warn source">${escape(t.source.reason)}: this answer is from the audit log alone (what is pending may be out of date).</p>`,
  );
  out.push(`<p class="log">${escape(coverageLine(t.log))}.</p>`);
  if (t.answer === 'nothing') {
    out.push(`<p>Nothing in the audit log names <b>${escape(t.query)}</b>.</p>`);
    if (t.redis?.length)
      out.push(`<p>Redis knows it:</p><ul class="redis">${t.redis.map((r) => `<li>${escape(r)}</li>`).join('')}</ul>`);
    return [...out, warnings(t)].join('\n');
  }
  if (t.answer === 'accounts') {
    out.push(
      `<p>The log of several sourcing accounts names <b>${escape(t.query)}</b>; choose one:</p><ul class="accounts">${t
        .accounts!.map(
          (a) => `<li>${link({ what: t.query, account: a.account }, a.account || '(none)')} (${a.lines} line(s))</li>`,
        )
        .join('')}</ul>`,
    );
    return out.join('\n');
  }
  if (t.otherAccounts?.length)
    out.push(
      `<p>Account <b>${escape(t.account)}</b>; the log of ${t.otherAccounts
        .map((a) => link({ what: t.query, account: a }, a))
        .join(', ')} also names it.</p>`,
    );
  if (t.answer === 'summary') return [...out, renderSummary(t), warnings(t)].join('\n');
  const list = (xs: Array<string | number>) => (xs.length ? xs.map((x) => escape(String(x))).join(', ') : '-');
  out.push(
    `<p>Requisition(s): <b>${list(t.requisitions)}</b>; RFQ(s): <b>${list(t.rfqIds)}</b>; file(s): <b>${list(t.files)}</b></p>`,
  );
  out.push(
    '<table id="timeline"><thead><tr><th>When (UTC)</th><th>Step</th><th>What happened</th></tr></thead><tbody>',
  );
  for (const s of t.steps) {
    const files = Object.entries(s.files ?? {}).map(([role, path]) => {
      const shown = shownPath(path, l.outbox, l.shownAs);
      const href = hrefOf(shown, l.shownAs);
      const text = escape(shown);
      return `<div class="files">${escape(role)}: ${href ? `<a href="${escape(href)}">${text}</a>` : text}</div>`;
    });
    out.push(
      `<tr data-event="${escape(s.event)}"><td class="when">${escape(s.at.replace('T', ' ').slice(0, 19))}</td><td class="ev">${escape(s.event)}</td><td>${escape(s.summary)}${files.join('')}</td></tr>`,
    );
  }
  out.push('</tbody></table>');
  if (t.page)
    out.push(
      `<p class="page">Steps ${t.page.from + 1} to ${t.page.from + t.steps.length} of ${t.page.total}.${
        t.page.next !== undefined ? ` ${link({ what: t.query, from: t.page.next, ...acct(t) }, 'Next steps')}` : ''
      }</p>`,
    );
  out.push(
    t.pendingUnknown
      ? `<h2>Pending</h2><p class="pending">Not worked out: ${escape(t.pendingUnknown)}.</p>`
      : t.pending.length
        ? `<h2>Pending</h2><ul class="pending">${t.pending.map((p) => `<li>${escape(p)}</li>`).join('')}</ul>`
        : '<h2>Pending</h2><p class="pending">Nothing: the award is final.</p>',
  );
  return [...out, warnings(t)].join('\n');
}

const acct = (t: Timeline) => (t.otherAccounts?.length && t.account !== undefined ? { account: t.account } : {});

/** A recurring file name: its files, newest first, each with its counts and a link to its steps. */
function renderSummary(t: Timeline): string {
  const s = t.summary!;
  const rows = s.drops.map(
    (d) =>
      `<tr><td class="when">${escape(d.takenAt.replace('T', ' ').slice(0, 19))}</td><td class="ev">${link({ what: d.sha256, ...acct(t) }, d.sha256.slice(0, 16))}</td><td>${escape(d.host)}</td><td>${d.requisitions}</td><td>${d.held}</td><td>${d.rfqs}</td><td>${d.awards}</td></tr>`,
  );
  return `<p><b>${escape(s.file)}</b>: ${s.requisitions} requisitions in ${s.total} file(s) of that name, newest first. Each file's steps are a click away.</p>
<table id="files"><thead><tr><th>Taken (UTC)</th><th>sha256</th><th>Host</th><th>Requisitions</th><th>Held</th><th>RFQs</th><th>Awards</th></tr></thead><tbody>${rows.join('')}</tbody></table>${
    s.next !== undefined
      ? `<p class="page">${link({ what: t.query, from: s.next, ...acct(t) }, `Older files (${s.total - s.next} more)`)}</p>`
      : ''
  }`;
}

/** What could not be read, and what is missing. */
function warnings(t: Timeline): string {
  const out: string[] = [];
  if (t.log.unreadable)
    out.push(
      `<p class="warn">${t.log.unreadable} line(s) of the audit log could not be read (torn, or not a line of the log) and were skipped.</p>`,
    );
  if (t.log.missing)
    out.push(
      `<p class="warn">${t.log.missing} line(s) are missing from the audit log (numbers a writer gave that no file holds).</p>`,
    );
  return out.join('\n');
}

/** What a refused lookup says (503): too many at once, or no answer in time. */
function refusal(err: LookupRefusedError): string {
  return err.why === 'busy'
    ? `Too many lookups at once (${escape(err.message)}). The worker goes on meanwhile.`
    : err.why === 'deadline'
      ? `The lookup took too long (${escape(err.message)}) and was stopped; the worker went on meanwhile. Narrow it down: an external_id, a requisition, a file's sha256.`
      : `The lookup failed: ${escape(err.message)}.`;
}

/** The route; 503 until the worker gave its lookup (setTarget), like the webhook. */
export function traceRoute(): {
  handle(req: Request, res: Response): Promise<void>;
  setTarget(l: TraceLookup): void;
  close(): Promise<void>;
} {
  let lookup: TraceLookup | undefined;
  return {
    setTarget(l) {
      void lookup?.close?.();
      lookup = l;
    },
    close: async () => lookup?.close?.(),
    async handle(req, res) {
      res.set('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'");
      res.set('X-Content-Type-Options', 'nosniff');
      res.set('Cache-Control', 'no-store');
      const q = typeof req.query.q === 'string' ? req.query.q.trim().slice(0, 300) : '';
      if (!lookup) {
        res
          .status(503)
          .type('html')
          .send(page('rfq-sync: starting', `${form(q)}<p>The worker is starting.</p>`));
        return;
      }
      if (!q) {
        res.type('html').send(page('rfq-sync: where is my requisition?', form('')));
        return;
      }
      const from = typeof req.query.from === 'string' && /^\d{1,9}$/.test(req.query.from) ? Number(req.query.from) : 0;
      const account = typeof req.query.account === 'string' ? req.query.account.slice(0, 64) : undefined;
      try {
        const t = await lookup.timeline({ what: q, from, ...(account !== undefined ? { account } : {}) });
        res.type('html').send(page(`rfq-sync: ${q}`, `${form(q)}\n${renderTimeline(t, lookup)}`));
      } catch (err) {
        const refused = err instanceof LookupRefusedError && err.why !== 'failed';
        res
          .status(refused ? 503 : 500)
          .type('html')
          .send(
            page(
              'rfq-sync: trace failed',
              `${form(q)}<p class="warn">${err instanceof LookupRefusedError ? refusal(err) : escape((err as Error).message)}</p>`,
            ),
          );
      }
    },
  };
}
