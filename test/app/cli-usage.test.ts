/**
 * Usage errors of the CLI are commander's own checks (`.choices()`, `.conflicts()`, an argument parser): exit code 2
 * and a message naming the option, the value and what it may be, before any configuration is read.
 */
import { describe, expect, it } from 'vitest';
import { spawnCli } from '../helpers/cli.ts';

const SAMPLE = 'samples/generic-template.csv';

describe('CLI usage errors', () => {
  it('a value outside the choices, two options that exclude each other, a bad profile name: exit 2 and why', async () => {
    const cases: Array<[args: string[], says: string]> = [
      [
        ['sandbox', '--dialect', 'real'],
        "option '--dialect <name>' argument 'real' is invalid. Allowed choices are friendly, docs.",
      ],
      [
        ['demo', '--shapes', 'old'],
        "option '--shapes <name>' argument 'old' is invalid. Allowed choices are current, legacy.",
      ],
      [
        ['check', '--suggest', SAMPLE, '--mapping', 'generic'],
        "option '-m, --mapping <name>' cannot be used with option '--suggest'",
      ],
      [
        ['check', '--suggest', SAMPLE, '--name', 'my profile'],
        'A profile name may hold only letters, digits and . _ -',
      ],
      [['resolve', 'generic/PR-1', '--rfq', '7', '--post'], "option '--rfq <id>' cannot be used with option '--post'"],
    ];
    const runs = cases.map(([args]) => spawnCli(args, {}));
    const exits = await Promise.all(runs.map((r) => r.exited));
    cases.forEach(([args, says], i) => {
      expect(exits[i]!.code, args.join(' ')).toBe(2);
      expect(runs[i]!.output(), args.join(' ')).toContain(says);
      expect(runs[i]!.output()).toContain('(run with --help for usage)');
    });
  });
});
