import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { existsSync } from 'node:fs';
import { isVersionAtLeast, parseSocatVersion, probeSocat } from './probe-socat';

const SOCAT = ['/usr/bin/socat', '/bin/socat', '/usr/local/bin/socat'].find((p) => existsSync(p));
if (SOCAT === undefined) console.warn('SKIPPED: socat is not installed; the real-socat probe test does not run');

describe('socat version parsing', () => {
  test.each([
    ['socat version 1.7.4.4 on 06 Nov 2022', '1.7.4.4'],
    ['socat version 1.8.0.0 on x', '1.8.0.0'],
    ['socat version 1.7.3 on y', '1.7.3'],
    ['nonsense', undefined],
  ])('parses %j', (out, version) => {
    expect(parseSocatVersion(out)).toBe(version);
  });

  test.each([
    ['1.7.4', true],
    ['1.7.4.4', true],
    ['1.8.0.0', true],
    ['2.0.0', true],
    ['1.7.3.4', false],
    ['1.6.9', false],
    ['0.9.9', false],
  ])('%s >= 1.7.4 is %p', (v, ok) => {
    expect(isVersionAtLeast(v, [1, 7, 4])).toBe(ok);
  });
});

describe('probeSocat', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'probe-socat-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('reports a missing socat', async () => {
    expect(await probeSocat(undefined)).toEqual({ ok: false, reason: 'socat is not installed' });
  });

  it('refuses a relative path', async () => {
    expect((await probeSocat('socat')).ok).toBe(false);
  });

  it('reports a binary that cannot run', async () => {
    expect((await probeSocat(join(dir, 'absent'))).ok).toBe(false);
  });

  it('refuses a socat that is too old', async () => {
    const fake = join(dir, 'old-socat');
    await writeFile(fake, '#!/bin/sh\necho "socat version 1.7.3.4 on 01 Jan 2020"\n');
    await chmod(fake, 0o700);
    expect(await probeSocat(fake)).toEqual({ ok: false, reason: 'socat 1.7.3.4 is older than 1.7.4' });
  });

  (SOCAT === undefined ? it.skip : it)('accepts the installed socat', async () => {
    const probe = await probeSocat(SOCAT);
    expect(probe.ok).toBe(true);
  });
});
