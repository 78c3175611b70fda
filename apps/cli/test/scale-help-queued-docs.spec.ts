import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { cli } from './support';

const DOCS = resolve(__dirname, '..', '..', '..', 'docs');

describe('scale help and the documented task answer', () => {
  it('scale --help names the instances as the engine does: <base>_1 … <base>_N', async () => {
    const r = await cli(['scale', '--help'], {});
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('<base>_1 … <base>_N');
    expect(r.stdout).not.toContain('<base>-1');
  });

  test.each([['rest-api.md'], ['cli.md']])('docs/%s says what the queued field of a task answer counts', (page) => {
    const text = readFileSync(resolve(DOCS, page), 'utf8');
    expect(text).toMatch(/`queued`[^\n]*items waiting in the agent's inbox[^\n]*including this one/);
    expect(text).toMatch(/`queued: 1`[^\n]*dispatch/);
  });
});
