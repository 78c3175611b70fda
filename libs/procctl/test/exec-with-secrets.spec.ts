import { join } from 'node:path';
import { SECRET_HANDOVER_FD_ENV } from '../src/index';
import { buildLib, FIXTURES, run } from './support';

const TOKEN = 'tok-3f1c9a-handover';
const CONFIG_TOKEN = 'cfg-77ab01-handover';
const KEY = 'sk-llm-5d2e88-handover';

interface Report {
  pid: number;
  environ: string;
  cmdline: string;
  fdVar: string;
  handoverFdOpenBefore: boolean;
  handoverFdOpenAfter: boolean;
  read: { kind: string; secrets?: Record<string, string> };
}

beforeAll(() => buildLib(), 300_000);

describe('execWithSecrets: the re-executed image holds no secret in environ or cmdline', () => {
  it('moves every server secret into the pipe, keeps the other variables, and the reader closes the descriptor', () => {
    const env = {
      PATH: '/usr/bin:/bin',
      KEEP_ME: 'kept',
      GENSWARMS_API_TOKEN: TOKEN,
      GENSWARMS_CONFIG_API_TOKEN: CONFIG_TOKEN,
      GENSWARMS_LLM_API_KEY: KEY,
    };
    const r = run([process.execPath, join(FIXTURES, 'hand-over.cjs'), join(FIXTURES, 'receive.cjs')], env);
    expect(r.stderr).toBe('');
    const report = JSON.parse(r.stdout) as Report;
    for (const secret of [TOKEN, CONFIG_TOKEN, KEY]) {
      expect(report.environ).not.toContain(secret);
      expect(report.cmdline).not.toContain(secret);
    }
    expect(report.environ.split('\0')).toEqual(expect.arrayContaining(['KEEP_ME=kept', `${SECRET_HANDOVER_FD_ENV}=${report.fdVar}`]));
    expect(report.handoverFdOpenBefore).toBe(true);
    expect(report.handoverFdOpenAfter).toBe(false);
    expect(report.read).toEqual({
      kind: 'ok',
      secrets: { GENSWARMS_API_TOKEN: TOKEN, GENSWARMS_CONFIG_API_TOKEN: CONFIG_TOKEN, GENSWARMS_LLM_API_KEY: KEY },
    });
  });

  it('hands over an empty map when no secret is set (the receiver still closes the descriptor)', () => {
    const r = run([process.execPath, join(FIXTURES, 'hand-over.cjs'), join(FIXTURES, 'receive.cjs')], { PATH: '/usr/bin:/bin' });
    const report = JSON.parse(r.stdout) as Report;
    expect(report.read).toEqual({ kind: 'ok', secrets: {} });
    expect(report.handoverFdOpenAfter).toBe(false);
  });

  it('refuses a payload over the cap instead of truncating it', () => {
    const r = run([process.execPath, join(FIXTURES, 'hand-over.cjs'), join(FIXTURES, 'receive.cjs')], {
      PATH: '/usr/bin:/bin',
      GENSWARMS_API_TOKEN: 'x'.repeat(40_000),
    });
    expect(r.status).toBe(3);
    expect(JSON.parse(r.stdout)).toEqual({ error: 'handover_too_large' });
  });
});
