/**
 * The sandbox's control API under `/_sandbox/` (loopback only): what the spec leaves to people (advance, quotations,
 * decisions, winner, invitations, hide, purge), one field of a record rendered broken (`/rfqs/<id>/break`), the
 * faults, the behaviour, the stats and an autopilot tick, for the demo and tests in another process.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { z } from 'zod';
import { SandboxError } from '../core/index.ts';
import { behaviourSchema } from './behaviour.ts';
import type { SandboxControl } from './control.ts';
import type { FaultInjector } from './faults.ts';
import { faultsSchema } from './faults-schema.ts';
import { isLoopback, readBody, sendJson } from './http-io.ts';
import type { QuotationInput, RfqState, SandboxStore } from './store.ts';

export interface ControlApiDeps {
  control: SandboxControl;
  store: SandboxStore;
  faults: FaultInjector;
}

export async function controlApi(
  deps: ControlApiDeps,
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
): Promise<void> {
  if (!isLoopback(req.socket.remoteAddress))
    return sendJson(res, 403, { error: 'forbidden', message: 'control API is loopback only' });
  try {
    return await route(deps, req, res, path);
  } catch (err) {
    if (err instanceof SandboxError)
      return sendJson(res, err.status, { error: 'control_failed', message: err.message });
    if (err instanceof SyntaxError)
      return sendJson(res, 400, { error: 'bad_request', message: 'body is not valid JSON' });
    throw err;
  }
}

async function route(
  { control, store, faults }: ControlApiDeps,
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
): Promise<void> {
  const method = req.method ?? 'GET';
  const body = () => readObjectBody(req);
  const parts = path.split('/').filter(Boolean).slice(1); // after _sandbox
  const id = parts[1] !== undefined ? Number(parts[1]) : NaN;
  if (parts[0] === 'rfqs' && parts.length === 1 && method === 'GET')
    return sendJson(res, 200, { rfqs: control.listAll() });
  if (parts[0] === 'rfqs' && parts.length === 2 && method === 'GET') return sendJson(res, 200, store.mustGet(id));
  if (parts[0] === 'rfqs' && parts[2] === 'advance' && method === 'POST') {
    const b = await body();
    return sendJson(res, 200, control.advance(id, String(b.to ?? b.state) as RfqState));
  }
  if (parts[0] === 'rfqs' && parts[2] === 'quotations' && parts.length === 3 && method === 'POST') {
    return sendJson(res, 201, control.submitQuotation(id, (await body()) as unknown as QuotationInput));
  }
  if (parts[0] === 'rfqs' && parts[2] === 'quotations' && parts[4] === 'decision' && method === 'POST') {
    const b = await body();
    const qualified = b.qualified ?? (b.status === undefined ? undefined : b.status === 'qualified');
    if (typeof qualified !== 'boolean')
      throw new SandboxError(400, 'give {"qualified": true|false} or {"status": "qualified"|"not qualified"}');
    return sendJson(res, 200, control.decide(id, decodeURIComponent(parts[3]!), qualified));
  }
  if (parts[0] === 'rfqs' && parts[2] === 'winner' && method === 'POST') {
    const b = await body();
    if (b.quotation_key === undefined) throw new SandboxError(400, 'quotation_key is required');
    return sendJson(res, 200, control.pickWinner(id, String(b.quotation_key)));
  }
  if (parts[0] === 'rfqs' && parts[2] === 'hide' && method === 'POST') {
    const b = await body();
    return sendJson(res, 200, control.hide(id, b.hidden !== false));
  }
  if (parts[0] === 'rfqs' && parts[2] === 'purge' && method === 'POST') {
    control.purge(id);
    return sendJson(res, 200, { ok: true });
  }
  if (parts[0] === 'behaviour' && parts.length === 1 && method === 'GET')
    return sendJson(res, 200, control.getBehaviour());
  if (parts[0] === 'behaviour' && parts.length === 1 && (method === 'PUT' || method === 'POST')) {
    control.setBehaviour(checked(behaviourSchema, await body()));
    return sendJson(res, 200, control.getBehaviour());
  }
  if (parts[0] === 'rfqs' && parts[2] === 'listed-lines' && method === 'POST') {
    const mode = (await body()).mode ?? null;
    if (mode !== null && mode !== 'reorder' && mode !== 'drop')
      throw new SandboxError(400, 'give {"mode": "reorder" | "drop" | null}');
    return sendJson(res, 200, control.setListedLines(id, mode));
  }
  if (parts[0] === 'rfqs' && parts[2] === 'invite' && method === 'POST') {
    const b = await body();
    return sendJson(res, 201, control.invite(id, b as { sup_name: string; sup_email?: string; contact?: string }));
  }
  if (parts[0] === 'rfqs' && parts[2] === 'break' && method === 'POST') {
    const b = await body();
    if (typeof b.field !== 'string') throw new SandboxError(400, 'give {"field": "lines.0.qty", "value": ...}');
    return sendJson(res, 200, control.breakField(id, b.field, b.value));
  }
  if (parts[0] === 'faults' && parts.length === 1 && method === 'GET') return sendJson(res, 200, faults.get());
  if (parts[0] === 'faults' && parts.length === 1 && (method === 'PUT' || method === 'POST')) {
    faults.set(checked(faultsSchema, await body()));
    return sendJson(res, 200, faults.get());
  }
  if (parts[0] === 'stats' && parts.length === 1 && method === 'GET') return sendJson(res, 200, control.stats());
  if (parts[0] === 'stats' && parts[1] === 'reset' && method === 'POST') {
    control.resetStats();
    return sendJson(res, 200, { ok: true });
  }
  if (parts[0] === 'autopilot' && parts[1] === 'tick' && method === 'POST') {
    control.autopilotTick();
    return sendJson(res, 200, { ok: true });
  }
  return sendJson(res, 404, { error: 'not_found', message: `no control endpoint ${method} ${path}` });
}

/** A control call's body as `schema` reads it; a 400 names each field it breaks. */
function checked<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const parsed = schema.safeParse(body);
  if (!parsed.success)
    throw new SandboxError(400, parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
  return parsed.data;
}

/** A control call's body: empty is `{}`, anything but a JSON object is refused. */
async function readObjectBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  const text = await readBody(req);
  if (text.trim() === '') return {};
  const v = JSON.parse(text) as unknown;
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw new SandboxError(400, 'body must be a JSON object');
  return v as Record<string, unknown>;
}
