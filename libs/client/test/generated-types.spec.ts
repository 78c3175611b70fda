/**
 * src/lib/generated/api-types.ts is what codegen/generate-types.ts renders from the committed
 * docs/openapi.json (regenerate: `npm run gen-types -w @genswarms/client`).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { spawnSync } from 'node:child_process';
import { renderApiTypes } from '../codegen/generate-types';
import type { ApiDocument } from '../codegen/generate-types';

const DOCUMENT = resolve(__dirname, '../../../docs/openapi.json');
const GENERATED = resolve(__dirname, '../src/lib/generated/api-types.ts');

/** Prettier runs as its own process: under jest its dynamic imports need --experimental-vm-modules. */
function prettier(text: string): string {
  const bin = require.resolve('prettier/bin/prettier.cjs');
  const run = spawnSync(process.execPath, [bin, '--stdin-filepath', GENERATED], { input: text, encoding: 'utf8', shell: false });
  if (run.status !== 0) throw new Error(`prettier failed: ${run.stderr}`);
  return run.stdout;
}

function render(): string {
  const doc = JSON.parse(readFileSync(DOCUMENT, 'utf8')) as ApiDocument;
  return prettier(renderApiTypes(doc));
}

it('the generated client types match docs/openapi.json (no drift)', () => {
  const text = render();
  if (process.env['GENSWARMS_UPDATE_CLIENT'] === '1') writeFileSync(GENERATED, text);
  const committed = existsSync(GENERATED) ? readFileSync(GENERATED, 'utf8') : '';
  if (committed !== text)
    throw new Error('libs/client/src/lib/generated/api-types.ts is stale: run `npm run gen-types -w @genswarms/client`');
});
