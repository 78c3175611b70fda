import { nativeAddon } from '../addon/native-addon';

/**
 * While a detached child may still exit, a SIGCHLD asks the addon's reaper to look at the children whose exit
 * their pipe's end did not show (a descendant holds it). Node's `SIGCHLD` listener is a libuv signal watcher
 * beside libuv's own (its child_process keeps reaping its children); the listener is there only while a spawn
 * is pending or a child lives, so the idle process without detached children pays nothing.
 */
let holders = 0;

function onSigchld(): void {
  nativeAddon().sweepChildren();
}

/** A spawn starts (before the child can exit): the listener is installed. */
export function holdSigchldSweep(): void {
  holders += 1;
  if (holders === 1) process.on('SIGCHLD', onSigchld);
}

/** A spawn failed or a child's exit was seen. */
export function releaseSigchldSweep(): void {
  holders -= 1;
  if (holders === 0) process.off('SIGCHLD', onSigchld);
}
