import { spawn } from 'node:child_process';
import { isProcessAlive, killProcessTree, listDescendants, procScanCount } from './process-tree';

// Issue 13: a swarm stop ran one full /proc scan per agent (every /proc/<pid>/stat, synchronously), so
// stopping N agents cost O(N²). Concurrent stops now share one snapshot.
function sleeper(): number {
  const child = spawn('/bin/sleep', ['300'], { shell: false, detached: true, stdio: 'ignore' });
  child.unref();
  return child.pid as number;
}

test('stopping 20 process trees at once reads /proc once, and every tree is gone', async () => {
  const pids = Array.from({ length: 20 }, sleeper);
  await new Promise((resolve) => setTimeout(resolve, 150)); // older than any snapshot taken before
  const before = procScanCount();
  await Promise.all(pids.map((pid) => killProcessTree(pid, 2000)));
  expect(procScanCount() - before).toBe(1);
  expect(pids.filter(isProcessAlive)).toEqual([]);
});

test('listDescendants without an age takes a fresh scan and sees a child started after the last one', async () => {
  const parent = spawn('/bin/sh', ['-c', 'read line; /bin/sleep 300 & wait'], {
    shell: false,
    detached: true,
    stdio: ['pipe', 'ignore', 'ignore'],
  });
  try {
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(listDescendants(parent.pid as number)).toEqual([]);
    parent.stdin?.write('go\n');
    for (let i = 0; i < 100 && listDescendants(parent.pid as number).length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(listDescendants(parent.pid as number)).toHaveLength(1);
  } finally {
    await killProcessTree(parent.pid as number, 500);
  }
});
