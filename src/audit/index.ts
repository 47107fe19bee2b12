/** The audit log: one line per step of a requisition, from its file to its award, with its reader and timelines. */
export type { AuditEvent, AuditIdentity, AuditLine } from './events.ts';
export { auditComparison } from './outputs.ts';
export { readAudit } from './reader.ts';
export { createAnswered, quotationsPulled, resolvedBy, retentionDone, transitionSeen } from './steps.ts';
export { buildTimeline, type Current, formatTimeline, type Timeline } from './timeline.ts';
export { type AuditSink, createAuditLog } from './writer.ts';
