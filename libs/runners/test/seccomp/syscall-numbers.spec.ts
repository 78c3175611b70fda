/**
 * The syscall tables against the kernel's own UAPI headers (linux-libc-dev): every number a filter names must be
 * the one `#define __NR_<name>` gives, for x86_64 and for the generic table aarch64 uses. Skipped loudly when the
 * headers are not installed.
 */
import { existsSync, readFileSync } from 'node:fs';
import { SYSCALL_TABLES, type SeccompArch } from '../../src/lib/seccomp/syscall-tables';

const HEADERS: Readonly<Record<SeccompArch, string>> = {
  x86_64: '/usr/include/x86_64-linux-gnu/asm/unistd_64.h',
  aarch64: '/usr/include/asm-generic/unistd.h',
};

function numbersIn(file: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const m of readFileSync(file, 'utf8').matchAll(/^#define __NR_([a-z0-9_]+)\s+([0-9]+)\s*$/gm)) out.set(m[1] as string, Number(m[2]));
  return out;
}

describe.each(Object.keys(HEADERS) as SeccompArch[])('syscall table %s', (arch) => {
  const header = HEADERS[arch];
  const run = existsSync(header) ? it : it.skip;
  if (!existsSync(header)) console.warn(`SKIPPED syscall-numbers ${arch}: ${header} missing (apt-get install linux-libc-dev)`);

  run('names each syscall by the number the kernel headers give', () => {
    const kernel = numbersIn(header);
    const table = Object.entries(SYSCALL_TABLES[arch].numbers);
    expect(Object.fromEntries(table.map(([name]) => [name, kernel.get(name)]))).toEqual(Object.fromEntries(table));
  });
});
