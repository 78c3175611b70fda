/**
 * The checked-in capture is what this engine really applies by default (regenerate-and-compare): the capture tool
 * runs against the live engine into a temp file, and its profile must equal assets/docker-default-seccomp.json.
 * A different engine version fails here with the command that regenerates the file. Needs root (the OCI bundle
 * is under /run) and a Docker engine.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { DOCKER_DEFAULT_SECCOMP_PATH } from '../../src/lib/docker/docker-seccomp';
import { describeIfEngine, TEST_IMAGE } from '../docker/docker-support';

const TOOL = path.resolve(__dirname, '../../../../tools/docker/capture-docker-seccomp.cjs');
const isRoot = process.getuid?.() === 0;
if (!isRoot) console.warn('SKIPPED docker-capture: not root (the engine keeps the OCI bundle under /run)');

(isRoot ? describeIfEngine : describe.skip)('the captured engine profile', () => {
  it('equals what the engine applies now to a container without capabilities', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'gs-capture-'));
    try {
      const out = path.join(dir, 'capture.json');
      execFileSync(process.execPath, [TOOL, '--out', out, '--image', TEST_IMAGE], { stdio: 'pipe' });
      const fresh = JSON.parse(readFileSync(out, 'utf8')) as { engine: string; profile: unknown };
      const stored = JSON.parse(readFileSync(DOCKER_DEFAULT_SECCOMP_PATH, 'utf8')) as { engine: string; profile: unknown };
      const hint = `engine ${fresh.engine}, capture of ${stored.engine}: regenerate with node tools/docker/capture-docker-seccomp.cjs`;
      expect({ hint, profile: fresh.profile }).toEqual({ hint, profile: stored.profile });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
