/**
 * The layering and process-safety lint rules are real: each violating fixture fails lint, and the
 * matching compliant fixture passes. Linting runs the workspace's own eslint.config.mjs.
 */
import { ESLint } from 'eslint';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');
const TYPED_OFF = {
  '@typescript-eslint/switch-exhaustiveness-check': 'off',
  '@typescript-eslint/no-floating-promises': 'off',
  '@typescript-eslint/await-thenable': 'off',
} as const;

// eslint-disable-next-line @typescript-eslint/no-require-imports -- the workspace config is CommonJS by design
const workspaceConfig = require(path.join(ROOT, 'eslint.config.cjs')) as ESLint.Options['baseConfig'][];
// Virtual files are not part of any tsconfig, so type-aware parsing is switched off for them.
const eslint = new ESLint({
  cwd: ROOT,
  overrideConfigFile: true,
  baseConfig: [
    ...(workspaceConfig as never[]),
    { files: ['**/*.ts'], languageOptions: { parserOptions: { projectService: false, project: null } }, rules: TYPED_OFF },
  ],
});

async function ruleIds(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
  return (result?.messages ?? []).map((m) => m.ruleId ?? `fatal: ${m.message}`);
}

describe('layering rules', () => {
  test.each([
    ['libs/security/src/lib/x.ts', "import { a } from '@genswarms/runners';", 'a core lib importing another lib'],
    ['libs/receipts/src/lib/x.ts', "import { a } from '@genswarms/security';", 'receipts importing security'],
    ['libs/ir-gate/src/lib/x.ts', "import { a } from '@genswarms/engine';", 'ir-gate importing engine'],
    ['libs/egress/src/lib/x.ts', "import { a } from '@genswarms/runners';", 'egress importing runners (upward)'],
    ['libs/engine/src/lib/x.ts', "import { a } from '@genswarms/server';", 'a lib importing an app'],
    ['apps/cli/src/x.ts', "import { a } from '@genswarms/server';", 'an app importing an app'],
    ['libs/engine/src/lib/x.ts', "import Docker from 'dockerode';", 'dockerode outside runners'],
    ['apps/server/src/x.ts', "import Docker from 'dockerode';", 'dockerode in the server'],
    ['libs/engine/src/lib/x.ts', "import express from 'express';", 'express outside the server'],
    ['apps/cli/src/x.ts', "import { Server } from 'socket.io';", 'socket.io outside the server'],
    ['libs/engine/src/lib/x.ts', "import { spawn } from 'node:child_process';", 'child_process in the engine'],
    ['apps/server/src/x.ts', "import * as cp from 'child_process';", 'child_process in the server'],
    ['libs/security/src/lib/x.ts', "import Database from 'better-sqlite3';", 'sqlite outside the engine'],
    ['apps/server/src/x.ts', "import { a } from '@genswarms/engine/src/lib/store';", 'a deep import past the barrel'],
    ['libs/engine/src/lib/x.ts', "import { a } from '../../../../libs/runners/src/index';", 'a relative import leaving the project'],
  ])('%s: refuses %s (%s)', async (file, code) => {
    expect(await ruleIds(file, `${code}\nvoid a;\n`)).toContain('no-restricted-imports');
  });

  test.each([
    ['libs/egress/src/lib/x.ts', "import { a } from '@genswarms/security';"],
    ['libs/engine/src/lib/x.ts', "import { a } from '@genswarms/runners';"],
    ['libs/runners/src/lib/x.ts', "import Docker from 'dockerode';"],
    ['libs/runners/src/lib/x.ts', "import { spawn } from 'node:child_process';"],
    ['apps/server/src/x.ts', "import express from 'express';"],
    ['libs/engine/src/lib/x.spec.ts', "import { spawn } from 'node:child_process';"],
    ['libs/engine/src/lib/x.ts', "import Database from 'better-sqlite3';"],
  ])('%s: allows %s', async (file, code) => {
    expect(await ruleIds(file, `${code}\nvoid 0;\n`)).not.toContain('no-restricted-imports');
  });
});

describe('process-safety rules', () => {
  const file = 'libs/runners/src/lib/x.ts';
  test.each([
    ["import { spawn } from 'node:child_process';\nspawn('/bin/ls', ['-l'], { shell: true });", 'genswarms/no-shell-spawn'],
    ["import { spawn } from 'node:child_process';\nconst s = 'sh';\nspawn('/bin/ls', [], { shell: s });", 'genswarms/no-shell-spawn'],
    ["import { exec } from 'node:child_process';\nexec('ls');", 'genswarms/no-shell-spawn'],
    ["import * as cp from 'child_process';\ncp.execSync('ls');", 'genswarms/no-shell-spawn'],
    ["import { spawn } from 'node:child_process';\nspawn('/bin/ls', '-l');", 'genswarms/spawn-argv-array'],
    ["import { execFile as run } from 'node:child_process';\nconst d = 'x';\nrun(`/bin/${d}`, []);", 'genswarms/spawn-argv-array'],
    ["import { spawnSync } from 'node:child_process';\nconst a = 'x';\nspawnSync('/bin/ls', '-l ' + a);", 'genswarms/spawn-argv-array'],
  ])('flags %j', async (code, rule) => {
    expect(await ruleIds(file, code)).toContain(rule);
  });

  test.each([
    "import { spawn } from 'node:child_process';\nspawn('/bin/ls', ['-l'], { shell: false, stdio: 'ignore' });",
    "import * as cp from 'node:child_process';\nconst argv: string[] = [];\ncp.execFile('/bin/ls', argv);",
    "const re = /x/;\nre.exec('x');",
  ])('accepts %j', async (code) => {
    const ids = await ruleIds(file, code);
    expect(ids).not.toContain('genswarms/no-shell-spawn');
    expect(ids).not.toContain('genswarms/spawn-argv-array');
  });
});
