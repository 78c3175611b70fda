import { spawn } from 'node:child_process';
import { isProcessAlive, killProcessTree, listDescendants, procScanCount } from './process-tree';
import { waitFor } from '@genswarms/test-kit';

// A swarm stop (and a launch-time isolation check) ran one full /proc scan per agent (every
// /proc/<pid>/stat, synchronously), so N agents cost O(N²). A tree is now walked down its children files
// (/proc/<pid>/task/<tid>/children); only a kernel without them scans, and concurrent stops share that scan.
function sleeper(): number {
  const child = spawn('/bin/sleep', ['300'], { shell: false, detached: true, stdio: 'ignore' });
  child.unref();
  return child.pid as number;
}

test('stopping 20 process trees at once takes at most one full /proc scan, and every tree is gone', async () => {
  const pids = Array.from({ length: 20 }, sleeper);
  await new Promise((resolve) => setTimeout(resolve, 150)); // older than any snapshot taken before
  const before = procScanCount();
  await Promise.all(pids.map((pid) => killProcessTree(pid, 2000)));
  expect(procScanCount() - before).toBeLessThanOrEqual(1);
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
    await waitFor(() => listDescendants(parent.pid as number).length > 0, 'the child of the parent', { intervalMs: 20 });
    expect(listDescendants(parent.pid as number)).toHaveLength(1);
  } finally {
    await killProcessTree(parent.pid as number, 500);
  }
});

test('finds a grandchild by walking children files, without a full /proc scan', async () => {
  const parent = spawn('/bin/sh', ['-c', '/bin/sh -c "/bin/sleep 300 & wait" & wait'], { shell: false, detached: true, stdio: 'ignore' });
  try {
    await waitFor(() => listDescendants(parent.pid as number).length >= 2, 'two descendants', { intervalMs: 20 });
    const before = procScanCount();
    const tree = listDescendants(parent.pid as number);
    expect(tree).toHaveLength(2);
    expect(procScanCount() - before).toBe(0);
  } finally {
    await killProcessTree(parent.pid as number, 500);
  }
});
