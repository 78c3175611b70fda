import { EventEmitter } from 'node:events';
import { exitQuietlyOnBrokenPipe } from '../src/cli/broken-pipe';
import { lazyInterruptSignal } from '../src/cli/interrupt';

const errno = (code: string): NodeJS.ErrnoException => Object.assign(new Error(code), { code });

describe('process edge helpers', () => {
  it('a closed stdout (EPIPE) exits 0; any other stream error still throws', () => {
    const stream = new EventEmitter();
    const exits: number[] = [];
    exitQuietlyOnBrokenPipe(stream, (code) => exits.push(code));
    stream.emit('error', errno('EPIPE'));
    expect(exits).toEqual([0]);
    expect(() => stream.emit('error', errno('EIO'))).toThrow('EIO');
  });

  it('SIGINT/SIGTERM abort the follow signal only once something asked for it', () => {
    const proc = new EventEmitter();
    const signal = lazyInterruptSignal(proc);
    expect(proc.listenerCount('SIGINT')).toBe(0); // non-follow commands keep the default Ctrl-C
    const s = signal();
    expect(signal()).toBe(s);
    expect(proc.listenerCount('SIGINT')).toBe(1);
    proc.emit('SIGTERM');
    expect(s.aborted).toBe(true);
  });
});
