/**
 * The CLI's commands, one file each (the status report's parts and the operator commands' shared context beside
 * them), loaded only when their command runs, so `--help` and small commands start fast.
 */
export const commands = {
  service: () => import('./service.ts'), // worker, once
  status: () => import('./status-command.ts'),
  failed: () => import('./failed.ts'), // failed list, failed retry
  ingest: () => import('./ingest.ts'),
  poll: () => import('./poll.ts'),
  compare: () => import('./compare.ts'),
  doctor: () => import('./doctor.ts'),
  resolve: () => import('./resolve.ts'),
  trace: () => import('./trace.ts'),
  recover: () => import('./recover.ts'),
  resume: () => import('./resume.ts'),
  intake: () => import('./intake.ts'),
  sandbox: () => import('./sandbox.ts'),
  demo: () => import('./demo.ts'),
  check: () => import('./check.ts'), // check, check --suggest
  vendors: () => import('./vendors.ts'), // vendors --xref-draft
};

export type { SandboxCommandOptions } from './sandbox.ts';
