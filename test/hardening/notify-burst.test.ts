/**
 * The burst (issue 26, "Done when"): 500 files refused at once give one digest per route, not 500 messages.
 * Real inbox, ingest and notify jobs, a real SMTP server and a webhook receiver (test/notify/refused-burst.ts).
 */
import { describe, expect, it } from 'vitest';
import { usePipeline } from '../helpers/pipeline.ts';
import { refusedBurst } from '../notify/refused-burst.ts';

const pipeline = usePipeline({ sandbox: false, tag: 'notify-burst' });

describe('notifications under a burst', () => {
  it('500 files refused in a burst: one e-mail and one webhook call, each naming all 500', async () => {
    const burst = await refusedBurst(pipeline, { files: 450, links: 50, windowMs: 900_000 });
    expect(burst.waiting).toEqual(['it-hook', 'it-mail']);
    expect(burst.mails).toHaveLength(1);
    expect(burst.requests).toHaveLength(1);
    const mail = burst.mails[0]!;
    expect(mail.parsed.subject).toBe('[rfq-sync] 500 files refused');
    expect(mail.parsed.text!.match(/^- (export|link)-\d+\.csv refused: /gm)).toHaveLength(500);
    const body = burst.requests[0]!.json as { total: number; events: unknown[] };
    expect(body.total).toBe(500);
    expect(body.events).toHaveLength(500);
  });
});
