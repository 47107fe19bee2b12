/**
 * The label mapping: the `status` string inside an RFQ record -> its state. Lists carry labels (`Active`,
 * `Closed`, ...) that are not the filter values; the detail call carries the lower-case state. The mapping is used
 * only where no proven filter tells the state (the unfiltered walk, the detail call); an unknown label is reported
 * (its RFQ's state stays unknown), never guessed.
 */
import type { FilterForm, RfqState } from './types.ts';

/** Every label we know, lower-cased (compared case-insensitively, spaces trimmed). */
export const STATUS_LABELS: Readonly<Record<string, RfqState>> = {
  active: 'open',
  open: 'open',
  published: 'open',
  closed: 'closed',
  cancelled: 'cancelled',
  canceled: 'cancelled',
  completed: 'completed',
  complete: 'completed',
  awarded: 'completed',
};

export function stateOfLabel(label: string | undefined): RfqState | undefined {
  if (label === undefined) return undefined;
  return STATUS_LABELS[label.trim().toLowerCase()];
}

/** The status filter value on the wire for a state in a form: `open` or `Open`. */
export function filterValue(state: RfqState, form: FilterForm): string {
  return form === 'lower' ? state : state.charAt(0).toUpperCase() + state.slice(1);
}
