/** The event kinds, one line each: the export name is free, the kind's `name` is what routes pick. */
export { default as comparisonReady } from './comparison-ready.ts';
export { default as awardFinal } from './award-final.ts';
export { default as supplierResponseLow } from './supplier-response-low.ts';
export { default as fileRefused } from './file-refused.ts';
export { default as fileHeld } from './file-held.ts';
export { default as requisitionHeld } from './requisition-held.ts';
export { default as requisitionDecision } from './requisition-decision.ts';
export { default as tokenRefused } from './token-refused.ts';
export { default as serviceUnreachable } from './service-unreachable.ts';
export { default as redisStateLost } from './redis-state-lost.ts';
export { default as pollStuck } from './poll-stuck.ts';
export { default as auditUnwritable } from './audit-unwritable.ts';
export { default as channelFailing } from './channel-failing.ts';
export { default as erpVendorMissing } from './erp-vendor-missing.ts';
export { default as notifyTest } from './notify-test.ts';
