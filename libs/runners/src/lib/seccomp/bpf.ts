/**
 * A tiny classic-BPF assembler for seccomp filters (`struct sock_filter { u16 code; u8 jt; u8 jf; u32 k; }`),
 * with symbolic jump targets. Only what a seccomp filter needs: absolute word loads, JEQ/JGE/JSET, RET.
 */
import * as os from 'node:os';
import { RunnerError } from '../errors/runner-error';

/** `BPF_LD | BPF_W | BPF_ABS`: A = the 32-bit word at offset k of `struct seccomp_data`. */
export const BPF_LD_W_ABS = 0x20;
/** `BPF_JMP | BPF_JEQ | BPF_K`. */
export const BPF_JEQ_K = 0x15;
/** `BPF_JMP | BPF_JGE | BPF_K`. */
export const BPF_JGE_K = 0x35;
/** `BPF_JMP | BPF_JSET | BPF_K`. */
export const BPF_JSET_K = 0x45;
/** `BPF_RET | BPF_K`. */
export const BPF_RET_K = 0x06;
/** Bytes of one `struct sock_filter`. */
export const SOCK_FILTER_BYTES = 8;
/** The kernel's cap on a classic BPF program (BPF_MAXINSNS). */
export const BPF_MAX_INSNS = 4096;

/** One instruction; a jump names its targets by label (`next` = the following instruction). */
export type Insn =
  | { readonly op: 'ld'; readonly offset: number }
  | { readonly op: 'jeq' | 'jge' | 'jset'; readonly k: number; readonly jt: string; readonly jf: string }
  | { readonly op: 'ret'; readonly k: number }
  | { readonly op: 'label'; readonly name: string };

export const NEXT = 'next';

const JUMP_CODES = { jeq: BPF_JEQ_K, jge: BPF_JGE_K, jset: BPF_JSET_K } as const;

function u32(k: number): number {
  if (!Number.isInteger(k) || k < 0 || k > 0xffffffff) throw new RunnerError('runner_error', 'seccomp: a BPF constant is not a u32');
  return k;
}

/** Resolves labels to relative offsets (each must fit the u8 jt/jf) and encodes the program in host byte order. */
export function assembleBpf(program: readonly Insn[]): Buffer {
  const labels = new Map<string, number>();
  const insns: Exclude<Insn, { op: 'label' }>[] = [];
  for (const insn of program) {
    if (insn.op === 'label') {
      if (labels.has(insn.name) || insn.name === NEXT) throw new RunnerError('runner_error', `seccomp: duplicate label ${insn.name}`);
      labels.set(insn.name, insns.length);
    } else insns.push(insn);
  }
  if (insns.length === 0 || insns.length > BPF_MAX_INSNS) throw new RunnerError('runner_error', 'seccomp: program size out of range');
  const out = Buffer.alloc(insns.length * SOCK_FILTER_BYTES);
  const little = os.endianness() === 'LE'; // the kernel reads the array in host order
  const offsetTo = (at: number, label: string): number => {
    const target = label === NEXT ? at + 1 : labels.get(label);
    const rel = target === undefined ? -1 : target - at - 1;
    if (rel < 0 || rel > 255) throw new RunnerError('runner_error', `seccomp: jump to ${label} out of range`);
    return rel;
  };
  insns.forEach((insn, at) => {
    const [code, jt, jf, k] =
      insn.op === 'ld'
        ? [BPF_LD_W_ABS, 0, 0, insn.offset]
        : insn.op === 'ret'
          ? [BPF_RET_K, 0, 0, insn.k]
          : [JUMP_CODES[insn.op], offsetTo(at, insn.jt), offsetTo(at, insn.jf), insn.k];
    const base = at * SOCK_FILTER_BYTES;
    if (little) {
      out.writeUInt16LE(code, base);
      out.writeUInt32LE(u32(k), base + 4);
    } else {
      out.writeUInt16BE(code, base);
      out.writeUInt32BE(u32(k), base + 4);
    }
    out.writeUInt8(jt, base + 2);
    out.writeUInt8(jf, base + 3);
  });
  return out;
}
