import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { FIXTURES } from './support/child';
import type { TurnFixture } from './support/turn-fixture';
import { makeTurnFixture } from './support/turn-fixture';

describe('watchTurn leaves no timer or watcher behind', () => {
  let fx: TurnFixture;
  beforeEach(async () => {
    fx = await makeTurnFixture();
  });
  afterEach(async () => {
    await fx.cleanup();
  });

  // Measured in a child process: jest keeps timers of its own, so only a bare node can show ours.
  it('after resolving ok, malformed, refused, and after an abort', async () => {
    const child = spawn(process.execPath, [join(FIXTURES, 'watch-leak.cjs'), fx.workspace], {
      shell: false,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {},
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const code = await new Promise<number | null>((resolve, reject) => {
      child.once('error', reject);
      child.once('exit', resolve);
    });
    expect({ code, err }).toEqual({ code: 0, err: '' });
    expect(JSON.parse(out)).toEqual([
      { name: 'ok', outcome: 'ok:ok', leftovers: [] },
      { name: 'malformed', outcome: 'refused:receipt_malformed', leftovers: [] },
      { name: 'symlink', outcome: 'refused:receipt_symlink', leftovers: [] },
      { name: 'abort', outcome: 'AbortError', leftovers: [] },
    ]);
  });
});
