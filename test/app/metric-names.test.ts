/**
 * /metrics as standard dashboards and `promtool check metrics` read it: Node's default collectors under their
 * standard names (no prefix), no gauge named `_total`, our counters named `_total`, the last successful poll as a
 * timestamp gauge. promtool runs too where it is installed.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { createMetrics, METRIC_NAMES } from '../../app/http/metrics.ts';

describe('metric names', () => {
  it('standard Node names, no gauge named _total, the outputs counted, the last good poll as a timestamp', async () => {
    const m = createMetrics();
    m.setSources({ lastOkPoll: async () => Date.UTC(2026, 10, 25, 8, 0, 0) });
    m.onOutput('workbook');
    m.onOutput('workbook');
    m.onOutput('award');
    m.onRejectedRows(7);
    const text = await m.registry.metrics();
    const types = new Map([...text.matchAll(/^# TYPE (\S+) (\S+)$/gm)].map((x) => [x[1]!, x[2]!]));
    for (const std of [
      'process_cpu_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_heap_size_total_bytes',
      'nodejs_eventloop_lag_seconds',
      'nodejs_active_handles',
    ]) {
      expect(types.has(std), std).toBe(true);
    }
    expect(
      [...types.keys()].filter((n) => n.startsWith('rfq_sync_process') || n.startsWith('rfq_sync_nodejs')),
    ).toEqual([]);
    expect([...types].filter(([n, t]) => n.endsWith('_total') && t !== 'counter')).toEqual([]);
    expect([...types].filter(([n, t]) => t === 'counter' && !n.endsWith('_total'))).toEqual([]);
    expect(text).toMatch(new RegExp(`^${METRIC_NAMES.workbooks} 2$`, 'm'));
    expect(text).toMatch(new RegExp(`^${METRIC_NAMES.awardFiles} 1$`, 'm'));
    expect(text).toMatch(new RegExp(`^${METRIC_NAMES.rejectedRows} 7$`, 'm'));
    expect(text).toMatch(new RegExp(`^${METRIC_NAMES.lastOkPoll} 1795593600$`, 'm'));

    const promtool = spawnSync('promtool', ['check', 'metrics'], { input: text, encoding: 'utf8' });
    if (promtool.error === undefined) expect(promtool.status, promtool.stdout + promtool.stderr).toBe(0);
  });
});
