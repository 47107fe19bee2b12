/**
 * Each queue's contract is spelled in its module of src/queues/ and nowhere else: its name, its job names, its job
 * ids, its payload schema and its enqueue calls. Precisely, no file of src/, jobs/, app/ or bin/ outside src/queues/:
 *   1. builds a job id: no call of `jobId(`, and no string or template that starts like one (`poll~`, `create~`...);
 *   2. adds a job: no `.add(` or `.addBulk(` on a receiver whose name holds `queue` (`ctx.queues.poll.add(`,
 *      `d.queue.add(`): producers call the module's enqueue function;
 *   3. defines a payload schema: no `...JobSchema`, `...PayloadSchema` or `requisition...Schema` declared, and no
 *      zod in jobs/ (the consumers parse with their module's schema);
 *   4. spells a queue or job name: `'create-rfq'` nowhere, and no other name (`'ingest'`, `'poll'`, `'overview'`...)
 *      on a line that speaks of a queue or a job (`queue`, `Queue`, `job.name`): the same words mean other things
 *      elsewhere (a log component, a key family, a URL path), which this rule leaves alone; a key in a type
 *      (`Pick<Queues, 'poll'>`, `Queues['ingest']`) names a property, and is allowed.
 * Comments are not read. Pure: reads the sources; the checker is run on planted violations first.
 */
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, sources } from '../helpers/sources.ts';
import { QUEUE_MODULES } from '../../src/queues/index.ts';

const NAMES = [...new Set(QUEUE_MODULES.flatMap((m) => [m.name, ...Object.keys(m.jobs)]))];
const ID_PREFIXES = [...new Set(QUEUE_MODULES.flatMap((m) => m.idPrefixes))];

function withoutComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, ' ')).replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
}

/** The places in `text` that spell a queue's contract, as `line: what`. */
export function contractSpellings(text: string, inJobs = false): string[] {
  const found: string[] = [];
  withoutComments(text)
    .split('\n')
    .forEach((line, i) => {
      const at = (what: string) => found.push(`${i + 1}: ${what}`);
      if (/(^|[^\w.])jobId\s*\(/.test(line)) at('job id built (jobId call)');
      for (const p of ID_PREFIXES) if (new RegExp(`['"\`]${p}~`).test(line)) at(`job id spelled (${p}~)`);
      for (const m of line.matchAll(/([\w$.?]*)\.(add|addBulk)\s*\(/g))
        if (/queue/i.test(m[1]!)) at(`job added (${m[1]}.${m[2]})`);
      for (const m of line.matchAll(
        /\b(?:const|let|var|function)\s+(\w*(?:JobSchema|PayloadSchema)|requisition\w*Schema)\b/g,
      ))
        at(`payload schema ${m[1]}`);
      if (inJobs && /from\s+'zod'/.test(line)) at('zod imported by a job file');
      // a key in a type (`Pick<Queues, 'poll'>`, `Queues['ingest']`) names a property, not the queue
      const named = line.replace(/\b(?:Pick|Omit)<[^>]*>/g, '').replace(/Queues\['\w+'\]/g, '');
      for (const name of NAMES) {
        const lit = new RegExp(`['"\`]${name}['"\`]`);
        if (!lit.test(named)) continue;
        if (name === 'create-rfq' || /queue|job\.name|jobName/i.test(named)) at(`name '${name}' spelled`);
      }
    });
  return found;
}

describe('queue contracts', () => {
  it('the checker finds each kind of spelling (planted)', () => {
    const planted = [
      "const id = jobId('create', r.key);",
      'const id = `poll~${slot}`;',
      "await ctx.queues.poll.add('poll', data);",
      "d.queue.add('x', {});",
      'export const fooJobSchema = z.object({});',
      'const requisitionSchema = z.object({});',
      "import { z } from 'zod';",
      "waitForDrain(ctx, { queues: ['ingest', 'other'] });",
      "const q = ctx.queues.all.find((x) => x.name === 'notify');",
      "if (job.name === 'overview') return;",
      "const n = 'create-rfq';",
    ].join('\n');
    expect(contractSpellings(planted, true).map((f) => f.split(':')[0])).toEqual(
      ['1', '2', '3', '3', '4', '5', '6', '7', '8', '9', '10', '11'].map(String),
    );
    // the same words in other senses are left alone
    const innocent = [
      "log.child({ component: 'poll' });",
      "keyOf('notify', 'window', route);",
      "spool.add(r); seen.add('x');",
      "function f(ctx: { queues: Pick<Queues, 'poll' | 'ingest'> }, q: Queues['notify']) {}",
      '// await ctx.queues.poll.add(...) in a comment',
      '/** jobId(kind, ...) in a doc comment */',
    ].join('\n');
    expect(contractSpellings(innocent, true)).toEqual([]);
  });

  it('every queue module of src/queues is registered, and no two share a key, a name or an id prefix', () => {
    const declared = sources(join(ROOT, 'src/queues')).flatMap((f) =>
      [...readFileSync(f, 'utf8').matchAll(/export const (\w+) = \{[^;]*?\} as const satisfies QueueModule;/gs)].map(
        (m) => m[1],
      ),
    );
    expect(declared.length).toBe(QUEUE_MODULES.length);
    const unique = (xs: readonly string[]) => expect(new Set(xs).size).toBe(xs.length);
    unique(QUEUE_MODULES.map((m) => m.key));
    unique(QUEUE_MODULES.map((m) => m.name));
    unique(QUEUE_MODULES.flatMap((m) => m.idPrefixes));
  });

  it('no file outside src/queues spells a job name, job id, payload schema or enqueue call', () => {
    const files = ['src', 'jobs', 'app', 'bin']
      .flatMap((d) => sources(join(ROOT, d)))
      .filter((f) => !relative(ROOT, f).startsWith('src/queues/'));
    const found = files.flatMap((f) => {
      const rel = relative(ROOT, f);
      return contractSpellings(readFileSync(f, 'utf8'), rel.startsWith('jobs/')).map((x) => `${rel}:${x}`);
    });
    expect(found).toEqual([]);
  });
});
