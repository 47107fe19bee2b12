/**
 * Digests (docs/notifications.md#digests): the events of a route within NOTIFY_DIGEST_MS of its first go in one
 * message. A burst of refused files (some refused by the ingest job, some at the door) is one message per route that
 * picks them, naming every file; a route that does not pick them gets nothing. The 500-file burst of the issue runs
 * in the hardening suite (test/hardening/notify-burst.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { usePipeline } from '../helpers/pipeline.ts';
import { refusedBurst } from './refused-burst.ts';

const pipeline = usePipeline({ sandbox: false, tag: 'digest' });

describe('digests', () => {
  it('a burst of refused files: one digest per route, each naming every file once', { timeout: 60_000 }, async () => {
    const burst = await refusedBurst(pipeline, { files: 16, links: 4, windowMs: 600_000 });
    expect(burst.waiting).toEqual(['it-hook', 'it-mail']);
    // each due one window after its route's first event
    for (const due of burst.dueAfterMs) expect(due).toBeGreaterThan(590_000);
    expect(burst.mails).toHaveLength(1);
    expect(burst.requests).toHaveLength(1);
    const mail = burst.mails[0]!;
    expect(mail.to).toEqual(['it@example.com']);
    expect(mail.parsed.subject).toBe('[rfq-sync] 20 files refused');
    const text = mail.parsed.text!;
    expect(text.match(/^- export-\d+\.csv refused: fits no mapping profile/gm)).toHaveLength(16);
    expect(text.match(/^- link-\d+\.csv refused: it is a symbolic link/gm)).toHaveLength(4);
    expect(mail.parsed.html).toContain('20 files refused');
    const body = burst.requests[0]!.json as { total: number; events: Array<{ kind: string }>; omitted: number };
    expect(body.total).toBe(20);
    expect(body.events).toHaveLength(20);
    expect(new Set(body.events.map((e) => e.kind))).toEqual(new Set(['file-refused']));
  });
});
