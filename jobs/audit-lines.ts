/**
 * The audit lines of the jobs (src/audit/, docs/operations.md "Where is my requisition"): what each job did, as one
 * line per step. Each job module declares its own (`auditLines`, typed by its queue's payload and its result); the
 * worker (jobs/worker.ts) writes them around the processor: a job's lines after its processor returned and BEFORE
 * BullMQ records the job done, so no job is reported done without its line. A worker killed in between leaves the
 * job unfinished: its re-run (the stalled-job check) finds the work done and writes the line then (the builders know
 * the "already done" answers: a file finished by an earlier attempt, an RFQ already recorded, a message already
 * sent). Lines written while a job runs, before the step they record, are built where the step happens: the file
 * taken and each requisition accepted (jobs/ingest.ts), each transition (src/tracking/poll/poll-apply.ts), a pull
 * that asks for a comparison (src/awarding/quotations-runner.ts), a comparison version and its award
 * (src/awarding/comparison-runner.ts). Pure mapping plus reads of the records named; never a secret.
 */
import type { Job } from 'bullmq';
import type { AuditEvent } from '../src/audit/index.ts';
import type { Requisition } from '../src/core/index.ts';
import type { Folders } from '../src/settings/index.ts';
import type { WorkerServices } from '../src/worker/index.ts';

/** What the audit lines of a job read: the log, the records they name, where the reports are. */
export type AuditLinesContext = Pick<WorkerServices, 'audit' | 'redis' | 'keys'> & {
  config: { folders: Pick<Folders, 'reports'> };
};

/** One job module's lines; `R` is what its processor returns. A job with none says where its steps are written. */
export interface AuditLines<R> {
  /** Before the processor. */
  start?(ctx: AuditLinesContext, job: Job): Promise<AuditEvent[]>;
  /** After the processor returned, before the job is recorded done. */
  end?(ctx: AuditLinesContext, job: Job, result: R): Promise<AuditEvent[]>;
  /** The processor threw: a step that failed for good is a step too. */
  failed?(ctx: AuditLinesContext, job: Job, err: unknown): AuditEvent[];
}

/** A processor built for a worker's context, once, then run for each of its jobs. */
type Factory<C, R> = (ctx: C) => (job: Job) => Promise<R>;

/** The processors of `make`, each job's audit lines (`lines`) written around it. */
export function audited<C extends AuditLinesContext, R>(make: Factory<C, R>, lines: AuditLines<R>): Factory<C, R> {
  return (ctx) => {
    const process = make(ctx);
    const write = async (events: AuditEvent[]) => {
      for (const e of events) await ctx.audit.write(e);
    };
    return async (job) => {
      await write((await lines.start?.(ctx, job)) ?? []);
      let result: R;
      try {
        result = await process(job);
      } catch (err) {
        await write(lines.failed?.(ctx, job, err) ?? []);
        throw err;
      }
      await write((await lines.end?.(ctx, job, result)) ?? []);
      return result;
    };
  };
}

/** The fields that name a requisition on its lines. */
export function requisitionIdentity(r: Requisition) {
  return { profile: r.profile, key: r.key, external_ids: r.lines.map((l) => l.external_id), file: r.sourceFile };
}
