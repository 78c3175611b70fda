/**
 * A client flooding its stdout must not hold the server's event loop. libuv reads a pipe up to 32
 * times per wake-up, so without a pause per chunk one turn of the loop handled ~2 MB of lines (API p99 345 ms
 * during a 100 MB flood). Counted here without any clock: the lines handled between two turns of the loop
 * (setImmediate ticks) never exceed OUTPUT_LINES_PER_TICK (nor one chunk's worth).
 */
import { spawn } from 'node:child_process';
import { OUTPUT_LINES_PER_TICK, attachChild } from './child-handle';
import type { SessionDescription } from '../port';

const LINE = 'hostile flood line 0123456789abcdef'; // 35 chars + newline
/** One readable chunk is at most 64 KiB: that many bytes of lines, plus the partial line carried over. */
const MAX_LINES_PER_CHUNK = Math.ceil((64 * 1024) / (LINE.length + 1)) + 1;

test('a 16 MiB stdout flood is handed on at most OUTPUT_LINES_PER_TICK lines per turn of the event loop', async () => {
  const child = spawn('/bin/sh', ['-c', `/usr/bin/yes '${LINE}' | /usr/bin/head -c ${16 * 1024 * 1024}`], {
    shell: false,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const handle = attachChild(child, { description: {} as SessionDescription });
  let sinceTick = 0;
  let worst = 0;
  let total = 0;
  handle.onOutput(() => {
    sinceTick += 1;
    total += 1;
  });
  let running = true;
  const tick = (): void => {
    worst = Math.max(worst, sinceTick);
    sinceTick = 0;
    if (running) setImmediate(tick);
  };
  setImmediate(tick);
  await new Promise<void>((done) => handle.onExit(() => done()));
  running = false;
  expect(total).toBeGreaterThan(400_000);
  // one batch in the poll phase (a chunk arriving) and one in the check phase (the rest of a chunk) per turn
  expect(worst).toBeLessThanOrEqual(Math.min(MAX_LINES_PER_CHUNK, 2 * OUTPUT_LINES_PER_TICK));
}, 120_000);
