/**
 * The lookup page of the operations endpoint, `GET /trace?q=<what>` ("Where is my requisition?", linked from the
 * dashboard's header): a search box and the same timeline as `rfq-sync trace` (app/commands/trace.ts), as plain
 * server-rendered HTML with no script at all (its Content-Security-Policy allows none). Read-only; the endpoint's
 * Host check and token rules apply to it as to every page after the guard (app/http/http-server.ts). Paths under the
 * outbox are shown as people reach them (NOTIFY_OUTBOX_SHOWN_AS), and link there: an http(s) address as it is, a
 * share (`\\server\share\outbox`) as a file: link.
 */
import type { Request, Response } from 'express';
import type { Timeline } from '../../src/audit/index.ts';
import { shownPath } from '../../src/notify/index.ts';

export interface TraceLookup {
  /** The timeline of `what` (with Redis's state, or from the log alone when Redis does not answer). */
  timeline(what: string): Promise<Timeline>;
  /** The outbox and NOTIFY_OUTBOX_SHOWN_AS, for the links to workbooks and award files. */
  outbox: string;
  shownAs?: string | undefined;
}

const escape = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** Where a shown path links to: an address as it is, a share or a local path as a file: URL; else nothing. */
function hrefOf(shown: string, shownAs: string | undefined): string | undefined {
  if (!shownAs) return undefined;
  if (/^https?:\/\//i.test(shown)) return encodeURI(shown);
  if (shown.startsWith('\\\\')) return encodeURI(`file:${shown.replace(/\\/g, '/')}`);
  if (shown.startsWith('/')) return encodeURI(`file://${shown}`);
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

/** The timeline as an HTML fragment. */
export function renderTimeline(t: Timeline, l: Pick<TraceLookup, 'outbox' | 'shownAs'>): string {
  const out: string[] = [];
  out.push(
    t.source.redis === 'up'
      ? `<p class="source">From the audit log and Redis's current state.</p>`
      : `<p class="warn source">Redis is down (${escape(t.source.reason)}): answered from the audit log alone.</p>`,
  );
  if (t.steps.length === 0) {
    out.push(`<p>Nothing in the audit log names <b>${escape(t.query)}</b>.</p>`);
    return out.join('\n');
  }
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
  out.push(
    t.pending.length
      ? `<h2>Pending</h2><ul class="pending">${t.pending.map((p) => `<li>${escape(p)}</li>`).join('')}</ul>`
      : '<h2>Pending</h2><p class="pending">Nothing: the award is final.</p>',
  );
  if (t.torn.length)
    out.push(`<p class="warn">${t.torn.length} line(s) of the audit log were not whole and were skipped.</p>`);
  return out.join('\n');
}

/** The route; 503 until the worker gave its lookup (setTarget), like the webhook. */
export function traceRoute(): { handle(req: Request, res: Response): Promise<void>; setTarget(l: TraceLookup): void } {
  let lookup: TraceLookup | undefined;
  return {
    setTarget(l) {
      lookup = l;
    },
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
      try {
        const t = await lookup.timeline(q);
        res.type('html').send(page(`rfq-sync: ${q}`, `${form(q)}\n${renderTimeline(t, lookup)}`));
      } catch (err) {
        res
          .status(500)
          .type('html')
          .send(page('rfq-sync: trace failed', `${form(q)}<p class="warn">${escape((err as Error).message)}</p>`));
      }
    },
  };
}
