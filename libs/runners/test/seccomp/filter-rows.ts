/**
 * The filter table of docs/runners.md "Seccomp", as data: for each probe row, what each sandbox must answer.
 * `EPERM` = refused by a filter; `0` = the call works; `open` = no filter of ours stops it (anything but EPERM:
 * the probe's own value, e.g. 0 or EBADF, shows the call reached the kernel).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';

export const EPERM = 1;
export type Cell = typeof EPERM | 0 | 'open';
export type Report = Record<string, number | string>;

/** io_uring: the three calls, and a ring's IORING_OP_SOCKET (its row reports the setup's errno when setup is refused). */
export const URING_ROWS = ['io_uring_setup', 'io_uring_enter', 'io_uring_register', 'uring_socket_netlink', 'uring_socket_vsock'] as const;
/** Socket families other than AF_UNIX/AF_INET/AF_INET6, through socket and socketpair. */
export const FAMILY_ROWS = ['socket_vsock', 'socket_netlink', 'socketpair_vsock', 'socketpair_netlink'] as const;
/** Calls that reach into another process as ptrace would, and personality(READ_IMPLIES_EXEC). */
export const PTRACE_LIKE_ROWS = ['process_vm_readv', 'process_vm_writev', 'pidfd_getfd', 'kcmp', 'personality_read_implies_exec'] as const;
/** Always allowed: what ordinary clients need. */
export const ALLOWED_ROWS = [
  'socket_unix',
  'socket_inet',
  'socket_inet6',
  'socketpair_unix',
  'personality_query',
  'personality_linux',
  'fork',
] as const;

export interface Expectation {
  readonly uring: Cell;
  readonly families: Cell;
  readonly ptraceLike: Cell;
}

/** bwrap: io_uring refused under any filter; families for none/isolated; ptrace-like calls with `seccomp: "default"`. */
export function bwrapExpectation(network: 'open' | 'none' | 'isolated', seccomp: boolean): Expectation {
  const closed = network !== 'open';
  return {
    uring: closed || seccomp ? EPERM : 'open',
    families: closed ? EPERM : 'open',
    ptraceLike: seccomp ? EPERM : 'open',
  };
}

/** docker: the engine's default profile refuses the ptrace-like calls itself; none/isolated add the network denies. */
export function dockerExpectation(network: 'open' | 'none' | 'isolated'): Expectation {
  const closed = network !== 'open';
  return { uring: closed ? EPERM : 'open', families: closed ? EPERM : 'open', ptraceLike: EPERM };
}

/** Every row's cell, in one object (so a failure shows the whole table). */
export function expectedRows(e: Expectation): Record<string, Cell> {
  const out: Record<string, Cell> = {};
  for (const r of URING_ROWS) out[r] = e.uring;
  for (const r of FAMILY_ROWS) out[r] = e.families;
  for (const r of PTRACE_LIKE_ROWS) out[r] = e.ptraceLike;
  for (const r of ALLOWED_ROWS) out[r] = 0;
  return out;
}

function fold(got: number | string | undefined, want: Cell): Cell | string {
  if (got === EPERM) return EPERM;
  if (want === 'open' && got !== undefined) return 'open';
  return got === 0 ? 0 : String(got);
}

/** The report folded onto cells (EPERM, 0, or `open` where the table says no filter of ours applies). */
export function observedRows(report: Report, expected: Record<string, Cell>): Record<string, Cell | string> {
  const out: Record<string, Cell | string> = {};
  for (const [row, want] of Object.entries(expected)) out[row] = fold(report[row], want);
  return out;
}

/**
 * Compiles seccomp-probe.c into `dir`, statically (it must run in any container image) — glibc's static archive
 * comes with libc6-dev. Throws when gcc or the static libc is missing; the caller skips loudly.
 */
export function buildStaticProbe(dir: string): string {
  const out = path.join(dir, 'probe');
  execFileSync('gcc', ['-static', '-O0', '-o', out, path.join(__dirname, 'seccomp-probe.c')], { stdio: 'pipe' });
  return out;
}

/** An AF_VSOCK socket through the i386 ABI (x86_64 only): the direct socket call, and the socketcall multiplexer. */
export const I386_ROWS = ['i386_socket_vsock', 'i386_socketcall_vsock'] as const;
const SIGSEGV = 11;

/**
 * Whether this kernel runs i386 system calls (`int 0x80`), from a compiled probe outside any sandbox. A kernel
 * without IA32 emulation faults on `int 0x80` before any filter runs (SIGSEGV): the call cannot happen at all.
 */
export function hostRunsI386Syscalls(dir: string): boolean {
  if (process.arch !== 'x64') return false;
  const src = path.join(dir, 'ia32.c');
  writeFileSync(src, 'int main(void){long r;__asm__ volatile("int $0x80":"=a"(r):"a"(20L):"memory");return r>0?0:1;}\n');
  execFileSync('gcc', ['-O0', '-o', path.join(dir, 'ia32'), src], { stdio: 'pipe' });
  return spawnSync(path.join(dir, 'ia32'), [], { stdio: 'ignore' }).signal === null;
}

/** What an i386 row shows: the filter's own answer, or SIGSEGV on a kernel without IA32 emulation. */
export function i386Cell(answer: number | string, hostHasIa32: boolean): number | string {
  return hostHasIa32 ? answer : `signal:${SIGSEGV}`;
}
