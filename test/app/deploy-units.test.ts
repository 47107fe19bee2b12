/**
 * The systemd units as IT installs them: `systemd-analyze verify` accepts them and `systemd-analyze security` scores
 * them OK or better, where systemd-analyze exists (it runs offline: no systemd needs to be running).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-dir.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const hasAnalyze = spawnSync('systemd-analyze', ['--version']).status === 0;
// the template is checked as one instance of it
const UNITS = [
  ['deploy/rfq-sync.service', 'rfq-sync.service'],
  ['deploy/rfq-sync@.service', 'rfq-sync@acme.service'],
] as const;

describe('the Node version', () => {
  it('package.json engines names the Node this suite runs on (type stripping needs 24 here), and the units check it', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } };
    const min = /^>=(\d+)/.exec(pkg.engines.node);
    expect(min, pkg.engines.node).not.toBeNull();
    expect(Number(process.versions.node.split('.')[0])).toBeGreaterThanOrEqual(Number(min![1]));
    expect(Number(min![1])).toBeGreaterThanOrEqual(24);
    for (const [src] of UNITS) {
      const unit = readFileSync(join(ROOT, src), 'utf8');
      expect(unit).not.toMatch(/^ExecStart=\/usr\/bin\/node /m);
      expect(unit).toMatch(/^ExecStartPre=.*process\.versions\.node.*< 24/m);
    }
  });

  it("the image and both units start Node with the same young-generation cap, the one bench:trace's worker runs with", () => {
    const bench = readFileSync(join(ROOT, 'bench/trace.ts'), 'utf8');
    const flag = /WORKER_NODE_OPTIONS = '([^']+)'/.exec(bench)?.[1];
    expect(flag).toMatch(/^--max-semi-space-size=\d+$/);
    for (const src of [...UNITS.map(([u]) => u), 'Dockerfile']) {
      const text = readFileSync(join(ROOT, src), 'utf8');
      expect(text, src).toMatch(new RegExp(`NODE_OPTIONS=${flag}( |\\\\|$)`, 'm'));
    }
  });

  it('bin/rfq-sync.ts is committed executable', () => {
    const mode = execFileSync('git', ['ls-files', '-s', 'bin/rfq-sync.ts'], { cwd: ROOT, encoding: 'utf8' }).split(
      ' ',
    )[0];
    expect(mode).toBe('100755');
  });
});

describe.skipIf(!hasAnalyze)('systemd units', () => {
  it.each(UNITS)('%s: verify passes and security scores OK or better', (src, name) => {
    const dir = tempDir('rfq-units-');
    const unit = join(dir, name);
    copyFileSync(join(ROOT, src), unit);
    const verify = spawnSync('systemd-analyze', ['verify', unit], { encoding: 'utf8' });
    expect(verify.status, verify.stderr).toBe(0);
    expect(verify.stderr).not.toMatch(/Unknown key|Failed to parse|Invalid/i);
    const out = execFileSync('systemd-analyze', ['security', '--offline=true', unit], { encoding: 'utf8' });
    const m = /Overall exposure level for \S+: (\d+\.\d+) (\w+)/.exec(out);
    expect(m, out.slice(-500)).not.toBeNull();
    expect(Number(m![1])).toBeLessThan(5); // 0-4.9: SAFE or OK
    expect(['SAFE', 'OK']).toContain(m![2]);
  });

  it('the template runs one worker per account from its own YAML file, token and folder', () => {
    const text = readFileSync(join(ROOT, 'deploy/rfq-sync@.service'), 'utf8');
    expect(text).toMatch(/^Environment=RFQ_SYNC_CONFIG=\/etc\/rfq-sync\/%i\.yaml$/m);
    expect(text).toMatch(/^Environment=SOURCING_ACCOUNT=%i$/m);
    expect(text).toMatch(/^Environment=RFQ_SYNC_DIR=\/var\/lib\/rfq-sync\/%i$/m);
    expect(text).toMatch(/^ReadWritePaths=\/var\/lib\/rfq-sync\/%i$/m);
    expect(text).toMatch(/^RestartPreventExitStatus=2$/m);
  });
});
