/**
 * The CLI's commands, one file each (operator.ts holds the small ones that act on a running installation), loaded
 * only when their command runs, so `--help` and small commands start fast.
 */
export const commands = {
  operator: () => import('./operator.ts'), // status, failed, ingest, poll, compare, doctor, resolve
  service: () => import('./service.ts'), // worker, once
  trace: () => import('./trace.ts'),
  recover: () => import('./recover.ts'),
  resume: () => import('./resume.ts'),
  intake: () => import('./intake.ts'),
  sandbox: () => import('./sandbox.ts'),
  demo: () => import('./demo.ts'),
  suggestVendors: () => import('./suggest-vendors.ts'), // check --suggest's categories
};

/** The commands of operator.ts, by function name. */
export type OperatorCommands = typeof import('./operator.ts');
export type { SandboxCommandOptions } from './sandbox.ts';
