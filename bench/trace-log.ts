/**
 * The log bench:trace reads (bench/trace.ts): 40 days of daily exports under recurring names, each requisition
 * taken from its file to its award and the award's notification, written as the worker writes its lines (the same
 * fields, per-process numbers), straight to the day files (the writer's fdatasync per line would take hours here).
 */
import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { once } from 'node:events';
import { join } from 'node:path';

const DAY_MS = 86_400_000;
const T0 = Date.UTC(2026, 8, 1, 6, 0, 0);
export const ACCOUNT = 'bench';
const HOST = 'erp-gw-01';
/** The exports that recur daily: their name and requisitions per drop. */
export const DAILY = [
  { name: 'generic-template.csv', profile: 'generic', per: 150 },
  { name: 'ME5A_export_EN.csv', profile: 'sap-me5a', per: 100 },
];

export interface BenchLog {
  bytes: number;
  lines: number;
  requisitions: number;
  days: number;
  /** An external_id of a requisition in the middle of the log. */
  externalId: string;
}

export async function writeBenchLog(root: string, days = 40): Promise<BenchLog> {
  const dir = join(root, 'audit');
  await mkdir(dir, { recursive: true });
  let bytes = 0;
  let count = 0;
  let requisitions = 0;
  let rfq = 5_000;
  let externalId = '';
  for (let d = 0; d < days; d++) {
    const day = new Date(T0 + d * DAY_MS).toISOString().slice(0, 10);
    const out = createWriteStream(join(dir, `${day}.${HOST}.jsonl`), { mode: 0o640 });
    const writer = `${40_000 + d}-${(T0 + d * DAY_MS).toString(36)}`;
    let seq = 0;
    let t = T0 + d * DAY_MS;
    let buf = '';
    const line = async (e: Record<string, unknown>) => {
      t += 37;
      const l = { at: new Date(t).toISOString(), host: HOST, pid: 40_000 + d, account: ACCOUNT, ...e };
      buf += `${JSON.stringify({ ...l, writer, seq: ++seq })}\n`;
      count++;
      if (buf.length > 1 << 20) {
        bytes += Buffer.byteLength(buf);
        if (!out.write(buf)) await once(out, 'drain');
        buf = '';
      }
    };
    for (const f of DAILY) {
      const sha = `${String(d).padStart(4, '0')}${f.name.length}`.padEnd(64, 'ab');
      const file = { file: f.name, file_sha256: sha };
      await line({
        event: 'file-taken',
        summary: `file ${f.name} taken from the inbox (sha256 ${sha.slice(0, 12)}…)`,
        ...file,
        processing: `${f.name}.${d}`,
      });
      for (let r = 0; r < f.per; r++) {
        requisitions++;
        rfq++;
        const key = `PR-${day.replace(/-/g, '')}-${f.profile}-${String(r).padStart(4, '0')}`;
        const external_ids = [1, 2, 3].map((i) => `${key}-${i}`);
        if (d === Math.floor(days / 2) && r === 7 && !externalId) externalId = external_ids[0]!;
        const id = { profile: f.profile, key, external_ids, file: f.name };
        const rf = { ...id, rfq_id: rfq, rfq_no: rfq + 100_000 };
        const due = T0 + (d + 14) * DAY_MS;
        await line({
          event: 'requisition-accepted',
          summary: `requisition ${f.profile}/${key} accepted (3 line(s)), queued for creation`,
          ...id,
          file_sha256: sha,
          title: `Office supplies ${key}`,
          due_date: due,
        });
        await line({
          event: 'create-sent',
          summary: `RFQ ${rfq} created for requisition ${f.profile}/${key} (3 line(s) sent)`,
          ...id,
          rfq_id: rfq,
          outcome: 'created',
          status: 201,
          how: 'posted',
          positions: { [external_ids[0]!]: 0, [external_ids[1]!]: 1, [external_ids[2]!]: 2 },
          due_date: due,
        });
        for (const [from, to] of [
          ['created', 'open'],
          ['open', 'closed'],
        ])
          await line({
            event: 'transition',
            summary: `RFQ ${rfq}: ${from} -> ${to} (seen by the poll)`,
            ...rf,
            from,
            to,
            seen_at: new Date(t).toISOString(),
            path: 'poll',
          });
        await line({
          event: 'quotations-pulled',
          summary: `3 quotation(s) pulled for RFQ ${rfq} (closed); comparison v1 asked for`,
          ...rf,
          count: 3,
          keys: ['q1', 'q2', 'q3'],
          reason: 'closed',
          version: 1,
        });
        await line({
          event: 'comparison-written',
          summary: `comparison workbook v1 written for RFQ ${rfq}`,
          ...rf,
          version: 1,
          workbook: `/srv/rfq-sync/outbox/comparisons/RFQ-${rfq}-${rfq + 100_000}-Office supplies-v1.xlsx`,
          sha256: sha,
          revisions: { q1: 0, q2: 0, q3: 0 },
          for_award: false,
        });
        await line({
          event: 'award-final',
          summary: `award final for RFQ ${rfq}: Acme Industrial Supplies; total 2200.00 EUR`,
          ...rf,
          version: 2,
          award: `/srv/rfq-sync/outbox/awards/RFQ-${rfq}-${rfq + 100_000}-v2.csv`,
          sha256: sha,
          winner: 'q1',
          lines: external_ids.map((x) => ({
            external_id: x,
            supplier: 'Acme Industrial Supplies',
            line_total: '733.33',
          })),
          totals: { EUR: '2200.00' },
        });
        await line({
          event: 'notification-sent',
          summary: `notification ${sha.slice(0, 17)} (award-final) sent on route buyers`,
          ...rf,
          route: 'buyers',
          message_id: sha.slice(0, 17),
          events: 1,
          kinds: ['award-final'],
          outcome: 'sent',
          rfq_ids: [rfq],
        });
      }
      await line({
        event: 'file-read',
        summary: `file ${f.name} read with profile ${f.profile}: ${f.per} requisition(s) queued, 0 held, 0 row(s) rejected; archived`,
        ...file,
        outcome: 'done',
        profile: f.profile,
        report: `/srv/rfq-sync/outbox/reports/${f.name}.${sha.slice(0, 8)}.xlsx`,
        requisitions: f.per,
        held: 0,
        rejected_rows: 0,
      });
    }
    bytes += Buffer.byteLength(buf);
    out.end(buf);
    await once(out, 'finish');
  }
  return { bytes, lines: count, requisitions, days, externalId };
}
