/**
 * "Where is my requisition?" end to end: the shipped `rfq-sync worker` runs a sample export to its award against
 * the sandbox (quotations, close, winner, completion driven by the sandbox's control, as the demo's autopilot does),
 * then `rfq-sync trace <external_id>` prints the timeline from the file to the award. Each step is asserted, in
 * order, against what the run did: the file and its sha256, the RFQ the sandbox holds, the transitions, the
 * workbooks and the award file on disk (their sha256). Then Redis is stopped: trace answers from the log alone and
 * says that Redis is down.
 */
import { createHash } from 'node:crypto';
import { copyFileSync, readFileSync, readdirSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SAMPLES_DIR } from '../helpers/samples.ts';
import { Decimal } from 'decimal.js';
import { readAwardCsv, usePipeline, waitFor } from '../helpers/pipeline.ts';
import { spawnCli } from '../app/cli-helpers.ts';
import type { Timeline } from '../../src/audit/timeline.ts';

const pipeline = usePipeline({ tag: 'trace' });

const cmpDir = () => join(pipeline.data.outbox, 'comparisons');
const awardDir = () => join(pipeline.data.outbox, 'awards');
const ls = (dir: string) => {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
};
const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

async function trace(env: Record<string, string>, ...args: string[]): Promise<{ code: number | null; out: string }> {
  const run = spawnCli(['trace', ...args], env);
  const { code } = await run.exited;
  return { code, out: run.output() };
}

describe('rfq-sync trace', () => {
  it(
    'prints the timeline of an external_id from the file to the award, and answers with Redis stopped',
    { timeout: 180_000 },
    async () => {
      const env = pipeline.workerEnv({ LOG_LEVEL: 'warn' });
      const worker = await pipeline.spawnWorker(env);
      const source = join(SAMPLES_DIR, 'generic-template.csv');
      const staged = join(pipeline.staging, 'generic-template.csv');
      copyFileSync(source, staged);
      renameSync(staged, join(pipeline.data.inbox, 'generic-template.csv'));

      const ctl = pipeline.sandbox.control;
      const rfq = await waitFor('the RFQ of GEN-2027-0001', () =>
        ctl.listAll().find((r) => r.lines.some((l) => l.external_id === 'GEN-2027-0001-1')),
      );
      const lines = rfq.lines.map((l) => l.line_id);
      const acme = ctl.submitQuotation(rfq._id, {
        sup_name: 'Acme',
        prices: Object.fromEntries(lines.map((l) => [l, '100'])),
      });
      ctl.submitQuotation(rfq._id, { sup_name: 'Bolt', prices: Object.fromEntries(lines.map((l) => [l, '120'])) });
      const comparisons = () => ls(cmpDir()).filter((f) => f.includes(`-${rfq._id}-`));
      const awards = () => ls(awardDir()).filter((f) => f.includes(`-${rfq._id}`) && f.endsWith('.csv'));
      // seen open first (a poll), then closed: workbook v1
      await waitFor('the RFQ seen open', async () =>
        (await trace(env, 'GEN-2027-0001-1')).out.includes('created -> open'),
      );
      ctl.advance(rfq._id, 'closed');
      await waitFor('workbook v1', () => comparisons().length >= 1, 60_000);
      ctl.pickWinner(rfq._id, String(acme.quotation_key));
      ctl.advance(rfq._id, 'completed');
      await waitFor('the award file', () => awards().length >= 1, 60_000);
      await worker.kill('SIGTERM');

      const { code, out } = await trace(env, 'GEN-2027-0001-1', '--json');
      expect(code, out).toBe(0);
      const t = JSON.parse(out.slice(out.indexOf('{'))) as Timeline;
      expect(t.source).toEqual({ redis: 'up' });
      expect(t.requisitions).toEqual(['generic/GEN-2027-0001']);
      expect(t.rfqIds).toEqual([rfq._id]);
      expect(t.files).toEqual(['generic-template.csv']);
      expect(t.pending).toEqual([]);

      // the milestones, in this order (other steps may come between: the file's report is written after the creates)
      const order = [
        (s: Timeline['steps'][number]) => s.event === 'file-taken' && s.summary.includes(sha256(source).slice(0, 12)),
        (s) => s.event === 'requisition-accepted' && s.requisition === 'generic/GEN-2027-0001',
        (s) => s.event === 'create-sent' && s.rfq_id === rfq._id && s.summary.startsWith(`RFQ ${rfq._id} created`),
        (s) => s.event === 'transition' && s.summary.includes('created -> open'),
        (s) => s.event === 'transition' && s.summary.includes('open -> closed'),
        (s) => s.event === 'quotations-pulled' && s.summary.startsWith(`2 quotation(s) pulled for RFQ ${rfq._id}`),
        (s) => s.event === 'comparison-written' && s.files?.workbook === join(cmpDir(), comparisons().sort()[0]!),
        (s) => s.event === 'transition' && s.summary.includes('closed -> completed'),
        (s) =>
          s.event === 'award-final' && s.files?.award === join(awardDir(), awards()[0]!) && s.summary.includes('Acme'),
      ] satisfies Array<(s: Timeline['steps'][number]) => boolean>;
      let at = -1;
      for (const [i, match] of order.entries()) {
        const next = t.steps.findIndex((s, j) => j > at && match(s));
        expect(next, `milestone ${i} after step ${at}: ${JSON.stringify(t.steps, null, 1)}`).toBeGreaterThan(at);
        at = next;
      }
      expect(t.steps.filter((s) => s.event === 'file-read')).toHaveLength(1);
      expect(t.steps.every((s, i) => i === 0 || t.steps[i - 1]!.at <= s.at)).toBe(true);
      // other requisitions of the same file are not in its timeline
      expect(t.steps.some((s) => s.requisition === 'generic/GEN-2027-0002')).toBe(false);

      // the raw lines carry the identity and the files' hashes as written
      const log = readdirSync(join(pipeline.data.root, 'audit')).map((f) => join(pipeline.data.root, 'audit', f));
      const raw = log.flatMap((f) =>
        readFileSync(f, 'utf8')
          .trimEnd()
          .split('\n')
          .map((l) => JSON.parse(l) as Record<string, unknown>),
      );
      const csv = readAwardCsv(join(awardDir(), awards()[0]!));
      expect(csv).toHaveLength(3);
      const award = raw.find((l) => l.event === 'award-final' && l.rfq_id === rfq._id)!;
      expect(award).toMatchObject({
        profile: 'generic',
        key: 'GEN-2027-0001',
        external_ids: ['GEN-2027-0001-1', 'GEN-2027-0001-2', 'GEN-2027-0001-3'],
        rfq_no: rfq.rfq_no,
        sha256: sha256(join(awardDir(), awards()[0]!)),
        lines: csv.map((r) => ({ external_id: r.external_id, supplier: 'Acme', line_total: r.line_total })),
        totals: { [csv[0]!.currency || 'n/a']: csv.reduce((a, r) => a.plus(r.line_total!), new Decimal(0)).toFixed(2) },
      });
      const written = raw.filter((l) => l.event === 'comparison-written' && l.rfq_id === rfq._id);
      for (const w of written) expect(w.sha256).toBe(sha256(w.workbook as string));
      expect(JSON.stringify(raw)).not.toContain(pipeline.token);

      // the same as text, and with Redis stopped: from the log alone, saying so
      const text = await trace(env, 'GEN-2027-0001-1');
      expect(text.out).toMatch(/from the audit log and Redis's current state/);
      expect(text.out).toMatch(/pending: nothing \(the award is final\)/);
      await pipeline.redis.stop();
      try {
        const down = await trace(env, 'GEN-2027-0001-1', '--json');
        expect(down.code, down.out).toBe(0);
        const d = JSON.parse(down.out.slice(down.out.indexOf('{'))) as Timeline;
        expect(d.source.redis).toBe('down');
        expect(d.steps.map((s) => s.event)).toEqual(t.steps.map((s) => s.event));
        const plain = await trace(env, String(rfq._id));
        expect(plain.out).toMatch(/Redis is down \(.+\); answered from the audit log alone/);
        expect(plain.out).toContain('award-final');
      } finally {
        await pipeline.redis.restart();
      }
    },
  );
});
