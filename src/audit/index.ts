/** The audit log: one line per step of a requisition, from its file to its award, with its index, reader and timelines. */
export type { AuditEvent, AuditIdentity, AuditLine } from './events.ts';
export { auditFaults, recordAuditFault } from './fault-record.ts';
export { auditComparison } from './outputs.ts';
export { auditDir } from './log-names.ts';
export { readAudit } from './reader.ts';
export { createAnswered, quotationsPulled, resolvedBy, retentionDone, transitionSeen } from './steps.ts';
export { type Current, type Timeline, type TimelineStep } from './timeline.ts';
export { coverageLine, formatHead, formatStep, formatTail, formatTimeline } from './timeline-text.ts';
export { buildTimeline, openTraceIndex, toTimeline, TRACE_THREAD, traceLog } from './trace-log.ts';
export { queryTrace, type TraceAnswer, type TraceQuery, type TraceStream } from './trace-query.ts';
export { type AuditLog, type AuditSink, createAuditLog } from './writer.ts';
export type { AuditFault } from './writer-faults.ts';
