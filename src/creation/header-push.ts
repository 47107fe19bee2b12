/**
 * Header changes of an existing RFQ (title, due date, required date, description) from a re-export: what changed
 * against what was posted, and, with PUSH_HEADER_CHANGES, the push with the service's edit call (PUT /v1/rfqs/{id})
 * where it has one. The edit call is learned on first use: accepted -> `yes`; 405 or 501 -> `no` (reported from
 * then on without a call). A refusal of one edit (e.g. the RFQ is no longer open) is reported, never retried; a
 * transient failure is thrown so the job retries (the edit is idempotent: the same header again).
 */
import { PermanentHttpError, RfqSyncError } from '../core/index.ts';
import type { Dialect, Tristate, SourcingPort, RfqHeaderEdit } from '../sourcing/index.ts';
import type { HeaderChange, HeaderField, HeaderOutcome } from '../requisitions/index.ts';

/**
 * The edit call's body. A field that the re-export removed (required date, description) cannot be removed by an
 * edit that only sets fields: the description is set empty; a removed required date stays as it was (reported).
 */
function editOf(changes: HeaderChange[]): { edit: RfqHeaderEdit; unpushable: HeaderField[] } {
  const edit: RfqHeaderEdit = {};
  const unpushable: HeaderField[] = [];
  for (const c of changes) {
    if (c.now !== null) edit[c.field] = c.now;
    else if (c.field === 'description') edit.description = '';
    else unpushable.push(c.field);
  }
  return { edit, unpushable };
}

export interface HeaderPusher {
  push(rfqId: number, changes: HeaderChange[]): Promise<HeaderOutcome>;
}

export function createHeaderPusher(o: {
  client: Pick<SourcingPort, 'editRfq'>;
  dialect: () => Promise<Pick<Dialect, 'edit'>>;
  learnEdit: (edit: Exclude<Tristate, 'unknown'>, evidence: string) => Promise<void>;
}): HeaderPusher {
  return {
    async push(rfqId, changes) {
      const d = await o.dialect();
      if (d.edit === 'no')
        return { changes, pushed: false, reason: 'the service has no edit call: change it there by hand' };
      const { edit, unpushable } = editOf(changes);
      if (Object.keys(edit).length === 0)
        return { changes, pushed: false, reason: `${unpushable.join(', ')} removed: an edit cannot remove it` };
      try {
        await o.client.editRfq(rfqId, edit);
      } catch (err) {
        if (err instanceof PermanentHttpError && (err.status === 405 || err.status === 501)) {
          await o.learnEdit('no', `edit call: no (PUT /v1/rfqs/${rfqId} answered HTTP ${err.status})`);
          return {
            changes,
            pushed: false,
            reason: `the service has no edit call (HTTP ${err.status}): change it there by hand`,
          };
        }
        if (err instanceof RfqSyncError && err.kind === 'data')
          return { changes, pushed: false, reason: `the service refused the edit: ${err.message}` };
        throw err;
      }
      if (d.edit !== 'yes') await o.learnEdit('yes', `edit call: yes (PUT /v1/rfqs/${rfqId} accepted)`);
      return unpushable.length > 0
        ? { changes, pushed: true, reason: `${unpushable.join(', ')} removed in the export: an edit cannot remove it` }
        : { changes, pushed: true };
    },
  };
}
