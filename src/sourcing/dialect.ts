/**
 * Dialects of the sourcing service, detected per account, never assumed. What differs between services that speak
 * the interface (and between the interface and the real service's public documentation;
 * docs/architecture.md#service-dialects):
 *   - the unfiltered list (GET /v1/rfqs without status): every RFQ of the account, or refused;
 *   - the status filter's letter case (`open` or `Open`); a value the service does not recognise may be ignored
 *     (the whole account listed) or give an empty list, so a form is used only once PROVEN: its four filtered totals
 *     add up to the unfiltered total and no record of a filtered page carries another state's label. With no proven
 *     form the poll walks the unfiltered list and takes each RFQ's state from its label (status-labels.ts);
 *   - whether list lines echo `external_id` (learned from our own RFQs when they appear in a list);
 *   - the detail call (GET /v1/rfqs/{id}) and the edit call (PUT /v1/rfqs/{id}): used where they exist.
 * Every conclusion carries its evidence (shown by `rfq-sync doctor` and `status --json`).
 */
import { isRetryablePageError, PermanentHttpError } from '../core/index.ts';
import type { SourcingPort } from './port.ts';
import { filterValue } from './status-labels.ts';
import { RFQ_STATUSES, type FilterForm, type ListedRfq, type ListFilter, type RfqState } from './types.ts';

export type Tristate = 'yes' | 'no' | 'unknown';
export type FilterSetting = 'auto' | FilterForm | 'none';

export interface Dialect {
  /** The status filter in use: a proven (or forced) form, or `none` (unfiltered walk with labels). */
  filter: FilterForm | 'none';
  /** `detected` (proven by the evidence), `setting` (forced), or `unproven` (no form proven: `none` in use). */
  filterBasis: 'detected' | 'setting' | 'unproven';
  unfiltered: Tristate;
  echo: Tristate;
  detail: Tristate;
  edit: Tristate;
  /**
   * How long a new RFQ of ours took to show in the lists, ms (list-lag.ts: measured on our own creates, kept across
   * detections like the echo); undefined until measured.
   */
  listLagMs?: number;
  /** Unix ms of that measurement (measured again when older than a detection, or when a walk misses our RFQ). */
  listLagAt?: number;
  /** RFQs on the account at detection (the unfiltered list's meta.total): the listing strategy's estimates. */
  accountTotal?: number;
  /** Records per list page, where page 1 of the unfiltered list showed it (it held fewer than the total). */
  pageSize?: number;
  /** Record labels met that the label mapping does not know (their RFQs' state stays unknown). */
  unknownLabels: string[];
  /** One line per observation behind the conclusions. */
  evidence: string[];
  /** Unix ms of the detection. */
  detectedAt: number;
}

export interface DialectSettings {
  SOURCING_STATUS_FILTER: FilterSetting;
  SOURCING_EXTERNAL_ID_ECHO: 'auto' | 'yes' | 'no';
  SOURCING_DETAIL_CALL: 'auto' | 'yes' | 'no';
  SOURCING_EDIT_CALL: 'auto' | 'yes' | 'no';
}

type PageLister = Pick<SourcingPort, 'listRfqPages' | 'getRfq'>;

/** A probe page that fails (5xx past the transport's retries, broken JSON) is asked again, as the poll's pages are. */
const PAGE_RETRY = { attempts: 4, retryable: isRetryablePageError, backoffMs: (n: number) => 100 * 2 ** n };

/** The first page of a list: its total and records, or the refusal (a 4xx: the list does not exist in that form). */
async function firstPage(
  port: PageLister,
  list: ListFilter,
): Promise<{ total?: number; rfqs: ListedRfq[] } | { refused: string }> {
  try {
    for await (const page of port.listRfqPages(list, { onInvalid: () => undefined, pageRetry: PAGE_RETRY }))
      return { total: page.listSize, rfqs: page.rfqs };
    return { total: 0, rfqs: [] };
  } catch (err) {
    if (err instanceof PermanentHttpError) return { refused: `HTTP ${err.status}` };
    throw err;
  }
}

const describe = (list: ListFilter): string =>
  list === 'all'
    ? 'GET /v1/rfqs (no filter)'
    : typeof list === 'string'
      ? `status=${list}`
      : `status=${filterValue(list.state, list.form)}`;

/**
 * Detect the dialect of the account behind `port`: about 12 requests (page 1 of the unfiltered list before and after
 * each form's proof, page 1 of the four filters in each form, one detail call). `known` carries what was learned before (the echo, the edit call),
 * which detection cannot probe without side effects.
 */
export async function detectDialect(
  port: PageLister,
  settings: DialectSettings,
  known: Partial<Pick<Dialect, 'echo' | 'edit' | 'listLagMs' | 'listLagAt'>> = {},
  now = Date.now(),
): Promise<Dialect> {
  const evidence: string[] = [];
  const unknownLabels = new Set<string>();
  const noteLabels = (rfqs: ListedRfq[]) => {
    for (const r of rfqs) if (r.status !== undefined && r.labelState === undefined) unknownLabels.add(r.status);
  };
  const probe: Probe = { port, evidence, noteLabels };

  const { unfiltered, total, pageSize, sample: listed } = await probeUnfiltered(probe);
  const {
    filter,
    filterBasis,
    sample: filtered,
  } = await probeFilter(probe, settings.SOURCING_STATUS_FILTER, total, unfiltered);
  const detail = await probeDetail(probe, settings.SOURCING_DETAIL_CALL, listed ?? filtered);
  const { echo, edit } = learnedCalls(settings, known, evidence);
  evidence.push(
    known.listLagMs !== undefined
      ? `list lag: ${known.listLagMs} ms (measured on our own creates)`
      : 'list lag: not measured yet (measured on our next create)',
  );
  if (unknownLabels.size > 0)
    evidence.push(`unknown record labels (state not read from them): ${[...unknownLabels].join(', ')}`);

  return {
    filter,
    filterBasis,
    unfiltered,
    echo,
    detail,
    edit,
    ...(known.listLagMs !== undefined ? { listLagMs: known.listLagMs, listLagAt: known.listLagAt } : {}),
    ...(total !== undefined ? { accountTotal: total } : {}),
    ...(pageSize !== undefined ? { pageSize } : {}),
    unknownLabels: [...unknownLabels],
    evidence,
    detectedAt: now,
  };
}

/** What every probe of one detection shares: the port, the evidence written so far, the label collector. */
interface Probe {
  port: PageLister;
  evidence: string[];
  noteLabels: (rfqs: ListedRfq[]) => void;
}

/** Page 1 of the unfiltered list: whether it exists, its total, and a listed RFQ to try the detail call on. */
async function probeUnfiltered(
  p: Probe,
): Promise<{ unfiltered: Tristate; total: number | undefined; pageSize?: number; sample: ListedRfq | undefined }> {
  const all = await firstPage(p.port, 'all');
  if ('refused' in all) {
    p.evidence.push(`${describe('all')}: refused (${all.refused})`);
    return { unfiltered: 'no', total: undefined, sample: undefined };
  }
  if (all.total === undefined) {
    p.evidence.push(`${describe('all')}: answered without meta.total`);
    return { unfiltered: 'unknown', total: undefined, sample: undefined };
  }
  p.noteLabels(all.rfqs);
  p.evidence.push(`${describe('all')}: total ${all.total}`);
  const pageSize = all.total > all.rfqs.length && all.rfqs.length > 0 ? all.rfqs.length : undefined;
  return { unfiltered: 'yes', total: all.total, ...(pageSize ? { pageSize } : {}), sample: all.rfqs[0] };
}

/** The status filter: the forced one, else the first form proven (lower case first), else `none`. */
async function probeFilter(
  p: Probe,
  forced: FilterSetting,
  total: number | undefined,
  unfiltered: Tristate,
): Promise<{ filter: Dialect['filter']; filterBasis: Dialect['filterBasis']; sample: ListedRfq | undefined }> {
  let sample: ListedRfq | undefined;
  if (forced !== 'auto') {
    p.evidence.push(`status filter: ${forced} (SOURCING_STATUS_FILTER)`);
    return { filter: forced, filterBasis: 'setting', sample };
  }
  for (const form of ['lower', 'capitalised'] as const) {
    const proof = await proveForm(p.port, form, total, p.noteLabels);
    p.evidence.push(proof.line);
    sample ??= proof.sample;
    if (proof.proven) return { filter: form, filterBasis: 'detected', sample };
  }
  p.evidence.push(
    unfiltered === 'yes'
      ? 'no filter form proven: the poll walks the unfiltered list and takes each state from its label'
      : 'no filter form proven and no unfiltered list: states cannot be read (set SOURCING_STATUS_FILTER)',
  );
  return { filter: 'none', filterBasis: 'unproven', sample };
}

/** The detail call, tried on a listed RFQ (a 404 or other refusal: there is none), unless forced by its setting. */
async function probeDetail(
  p: Probe,
  setting: DialectSettings['SOURCING_DETAIL_CALL'],
  sample: ListedRfq | undefined,
): Promise<Tristate> {
  if (setting !== 'auto') {
    p.evidence.push(`detail call: ${setting} (SOURCING_DETAIL_CALL)`);
    return setting;
  }
  if (!sample) {
    p.evidence.push('detail call: not tried (no RFQ listed yet)');
    return 'unknown';
  }
  try {
    const got = await p.port.getRfq(sample._id);
    p.evidence.push(
      `GET /v1/rfqs/${sample._id} of a listed RFQ: ${got ? `found (status "${got.status ?? ''}")` : 'HTTP 404: no detail call'}`,
    );
    return got ? 'yes' : 'no';
  } catch (err) {
    if (!(err instanceof PermanentHttpError)) throw err;
    p.evidence.push(`GET /v1/rfqs/${sample._id} of a listed RFQ: HTTP ${err.status}: no detail call`);
    return 'no';
  }
}

/** The echo and the edit call: set, or as learned before (detection cannot probe them without side effects). */
function learnedCalls(
  settings: DialectSettings,
  known: Partial<Pick<Dialect, 'echo' | 'edit'>>,
  evidence: string[],
): { echo: Tristate; edit: Tristate } {
  const echo: Tristate =
    settings.SOURCING_EXTERNAL_ID_ECHO === 'auto' ? (known.echo ?? 'unknown') : settings.SOURCING_EXTERNAL_ID_ECHO;
  evidence.push(
    settings.SOURCING_EXTERNAL_ID_ECHO === 'auto'
      ? `external_id echo: ${echo} (learned from our own RFQs when they appear in a list)`
      : `external_id echo: ${echo} (SOURCING_EXTERNAL_ID_ECHO)`,
  );
  const edit: Tristate =
    settings.SOURCING_EDIT_CALL === 'auto' ? (known.edit ?? 'unknown') : settings.SOURCING_EDIT_CALL;
  evidence.push(
    settings.SOURCING_EDIT_CALL === 'auto'
      ? `edit call: ${edit} (learned on first use)`
      : `edit call: ${edit} (SOURCING_EDIT_CALL)`,
  );
  return { echo, edit };
}

/** Attempts of one form's proof while the account keeps changing under it (creates landing between the reads). */
const PROOF_ATTEMPTS = 3;

/**
 * One form is proven when its four totals add up to the unfiltered total and no listed record contradicts it. The
 * unfiltered total is read before and after the four filtered ones: RFQs created meanwhile (by our own workers while
 * they detect) make the two differ, and the sum is then accepted between them. An ignored filter cannot pass that
 * (each of its totals is at least the first one, so the sum is at least four times it), nor can an empty one.
 * A stable account whose sum does not match is conclusive; a changing one is asked again.
 */
async function proveForm(
  port: PageLister,
  form: FilterForm,
  firstTotal: number | undefined,
  noteLabels: (rfqs: ListedRfq[]) => void,
): Promise<{ proven: boolean; line: string; sample?: ListedRfq }> {
  let sample: ListedRfq | undefined;
  let before = firstTotal;
  for (let attempt = 1; ; attempt++) {
    const totals: string[] = [];
    let sum = 0;
    const contradictions: string[] = [];
    for (const state of RFQ_STATUSES) {
      const list = { state, form };
      const p = await firstPage(port, list);
      if ('refused' in p)
        return { proven: false, sample, line: `form ${form}: ${describe(list)} refused (${p.refused})` };
      if (p.total === undefined)
        return { proven: false, sample, line: `form ${form}: ${describe(list)} without meta.total` };
      totals.push(`${filterValue(state, form)} ${p.total}`);
      sum += p.total;
      sample ??= p.rfqs[0];
      noteLabels(p.rfqs);
      for (const r of p.rfqs)
        if (r.labelState !== undefined && r.labelState !== state)
          contradictions.push(`RFQ ${r._id} labelled "${r.status}" in ${describe(list)}`);
    }
    const sums = `${totals.join(' + ')} = ${sum}`;
    if (before === undefined)
      return { proven: false, sample, line: `form ${form}: ${sums}; no unfiltered total to prove it against` };
    if (before === 0)
      return { proven: false, sample, line: `form ${form}: the account is empty: nothing proves a filter yet` };
    const again = await firstPage(port, 'all');
    const after = 'refused' in again ? undefined : again.total;
    const exact = after === before && sum === before;
    const between = after !== undefined && after > before && after < 2 * before && sum >= before && sum <= after;
    if (exact || between) {
      if (contradictions.length > 0)
        return {
          proven: false,
          sample,
          line: `form ${form}: totals add up but ${contradictions.slice(0, 3).join('; ')}`,
        };
      const how = exact
        ? '= unfiltered total'
        : `between the unfiltered ${before} before and ${after} after (RFQs created meanwhile)`;
      return { proven: true, sample, line: `form ${form}: ${sums} ${how}, records carry their state: proven` };
    }
    if (after === before)
      return {
        proven: false,
        sample,
        line: `form ${form}: ${sums}, not the unfiltered ${before}: the filter is not applied`,
      };
    if (attempt >= PROOF_ATTEMPTS)
      return {
        proven: false,
        sample,
        line: `form ${form}: the account kept changing during ${attempt} attempts (last: ${sums}, unfiltered ${before} then ${after ?? 'unknown'}): not proven yet`,
      };
    before = after;
  }
}

/** The list to read for a state under a dialect, or undefined when states come from labels (filter `none`). */
export function listFor(d: Pick<Dialect, 'filter'>, state: RfqState): ListFilter | undefined {
  return d.filter === 'none' ? undefined : { state, form: d.filter };
}
