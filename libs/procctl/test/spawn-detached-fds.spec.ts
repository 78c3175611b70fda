import { once } from 'node:events';
import { readdirSync } from 'node:fs';
import { liveDetachedChildren, spawnDetached, type DetachedChild } from '../src/index';

/** Descriptors this process holds now. */
function openFds(): number {
  return readdirSync('/proc/self/fd').length;
}

async function exitOf(child: DetachedChild): Promise<[number | null, string | null]> {
  if (child.exitCode !== null || child.signalCode !== null) return [child.exitCode, child.signalCode];
  return (await once(child, 'exit')) as [number | null, string | null];
}

const CHILDREN = 50;

it(`holds at most one descriptor per running child (${CHILDREN} children), and none once they exited`, async () => {
  // the first spawn starts the reaper (its epoll set and wake-up descriptor stay for the process's life)
  const warm = await spawnDetached({ file: '/bin/true', argv: ['true'], env: {}, cwd: '/' });
  warm.stdout.resume();
  await exitOf(warm);
  const before = openFds();
  const children = await Promise.all(
    Array.from({ length: CHILDREN }, () => spawnDetached({ file: '/bin/sleep', argv: ['sleep', '30'], env: {}, cwd: '/' })),
  );
  for (const child of children) child.stdout.resume();
  const during = openFds() - before;
  try {
    expect(during).toBeLessThanOrEqual(CHILDREN);
  } finally {
    for (const child of children) process.kill(child.pid, 'SIGKILL');
  }
  const exits = await Promise.all(children.map(exitOf));
  expect(exits).toEqual(Array.from({ length: CHILDREN }, () => [null, 'SIGKILL']));
  expect(liveDetachedChildren()).toBe(0);
  await new Promise((resolve) => setImmediate(resolve)); // the sockets' close callbacks
  expect(openFds()).toBeLessThanOrEqual(before);
});
