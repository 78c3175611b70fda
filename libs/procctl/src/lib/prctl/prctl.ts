import { checkErrno, nativeAddon } from '../addon/native-addon';

/**
 * `prctl(PR_SET_DUMPABLE)`. `false` makes `/proc/<pid>/{environ,mem,fd,…}` root-owned, so a process
 * of the same non-root uid can neither read them nor ptrace this one. execve resets it to dumpable.
 */
export function setDumpable(flag: boolean): void {
  checkErrno('prctl(PR_SET_DUMPABLE)', nativeAddon().setDumpable(flag ? 1 : 0));
}

/** `prctl(PR_GET_DUMPABLE)` for this process. */
export function isDumpable(): boolean {
  return checkErrno('prctl(PR_GET_DUMPABLE)', nativeAddon().getDumpable()) !== 0;
}

/** `prctl(PR_SET_CHILD_SUBREAPER)`: orphaned descendants are re-parented to this process instead of init. */
export function setChildSubreaper(flag: boolean): void {
  checkErrno('prctl(PR_SET_CHILD_SUBREAPER)', nativeAddon().setChildSubreaper(flag ? 1 : 0));
}

/** `prctl(PR_GET_CHILD_SUBREAPER)` for this process. */
export function isChildSubreaper(): boolean {
  return checkErrno('prctl(PR_GET_CHILD_SUBREAPER)', nativeAddon().getChildSubreaper()) !== 0;
}
