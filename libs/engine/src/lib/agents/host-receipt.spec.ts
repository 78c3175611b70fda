import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { TURN_CANCELLED_ERROR, writeHostReceipt } from './host-receipt';

const TURN = '01jtestturn0000000000000000';

describe('writeHostReceipt (the host-made done.json of a turn the engine ended)', () => {
  let root: string;
  let ws: string;
  let outside: string;
  beforeEach(() => {
    root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gs-host-receipt-')));
    ws = path.join(root, 'ws');
    outside = path.join(root, 'outside');
    fs.mkdirSync(ws);
    fs.mkdirSync(outside);
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  const turnDir = (): string => path.join(ws, '.genswarms', 'turns', TURN);

  it('writes {"v":1,"turn","status":"error","error"} as a regular 0600 file, creating the turn dir', async () => {
    expect(await writeHostReceipt(ws, TURN, TURN_CANCELLED_ERROR)).toBe(true);
    const done = path.join(turnDir(), 'done.json');
    expect(JSON.parse(fs.readFileSync(done, 'utf8'))).toEqual({
      v: 1,
      turn: TURN,
      status: 'error',
      error: 'cancelled by the orchestrator',
    });
    const st = fs.lstatSync(done);
    expect(st.isFile()).toBe(true);
    expect(st.mode & 0o777).toBe(0o600);
  });

  it('keeps a done.json the client already wrote (the turn is just as over)', async () => {
    fs.mkdirSync(turnDir(), { recursive: true });
    fs.writeFileSync(path.join(turnDir(), 'done.json'), '{"v":1,"turn":"x","status":"ok"}');
    expect(await writeHostReceipt(ws, TURN, TURN_CANCELLED_ERROR)).toBe(true);
    expect(fs.readFileSync(path.join(turnDir(), 'done.json'), 'utf8')).toBe('{"v":1,"turn":"x","status":"ok"}');
  });

  test.each([
    ['.genswarms is a symlink to a directory outside', (): void => fs.symlinkSync(outside, path.join(ws, '.genswarms'))],
    [
      'turns is a symlink to a directory outside',
      (): void => {
        fs.mkdirSync(path.join(ws, '.genswarms'));
        fs.symlinkSync(outside, path.join(ws, '.genswarms', 'turns'));
      },
    ],
    [
      'the turn dir is a symlink to a directory outside',
      (): void => {
        fs.mkdirSync(path.join(ws, '.genswarms', 'turns'), { recursive: true });
        fs.symlinkSync(outside, turnDir());
      },
    ],
    [
      'the turn dir is a regular file',
      (): void => {
        fs.mkdirSync(path.join(ws, '.genswarms', 'turns'), { recursive: true });
        fs.writeFileSync(turnDir(), 'x');
      },
    ],
  ])('refuses when %s and writes nothing anywhere', async (_what, plant) => {
    plant();
    expect(await writeHostReceipt(ws, TURN, TURN_CANCELLED_ERROR)).toBe(false);
    expect(fs.readdirSync(outside)).toEqual([]);
  });

  it('never follows a done.json symlink planted by the agent', async () => {
    fs.mkdirSync(turnDir(), { recursive: true });
    const target = path.join(outside, 'victim');
    fs.writeFileSync(target, 'untouched');
    fs.symlinkSync(target, path.join(turnDir(), 'done.json'));
    await writeHostReceipt(ws, TURN, TURN_CANCELLED_ERROR);
    expect(fs.readFileSync(target, 'utf8')).toBe('untouched');
  });
});
