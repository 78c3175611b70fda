/**
 * The CLI talks to the server only through `@genswarms/client`. A scan of apps/cli/src (TypeScript's
 * own parser, so comments and strings never count) fails on any `fetch(` call, any import of socket.io-client,
 * and any `as` cast in a file that calls the API, except the few listed below, each with its reason.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import * as ts from 'typescript';

const SRC = join(__dirname, '..', 'src');

/** Modules through which a file calls the server; a file importing one of them may not cast what it gets. */
const API_MODULES: readonly RegExp[] = [/^@genswarms\/client$/, /\/client\/call$/, /\/client\/api-client$/, /\/stream\/swarm-socket$/];

/** `<file>: <cast text>` → why it is not a cast of an API answer. */
const JUSTIFIED_CASTS: Readonly<Record<string, string>> = {
  'commands/node-commands.ts: body as Body':
    "the operator's spec file sent as the add body; the server's schema checks it (400 invalid_config), nothing of an answer",
  'commands/agents.ts: resolveConfigPaths({ agents: [spec] }, dir) as { agents: Array<Record<string, unknown>> }':
    "the operator's agent spec with its relative paths resolved (a config file, not an answer)",
  'commands/snapshot.ts: err as NodeJS.ErrnoException': 'a file-system error of writing the snapshot file',
  'daemon/wait-ready.ts: JSON.parse(line) as { message?: unknown; code?: unknown; explanation?: unknown }':
    "a line of the server's log file (every field checked before use), not an HTTP answer",
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(path);
    return e.name.endsWith('.ts') && !e.name.endsWith('.spec.ts') ? [path] : [];
  });
}

interface Finding {
  readonly kind: 'fetch' | 'socket.io-client' | 'cast';
  readonly text: string;
}

function findings(file: string): Finding[] {
  const sf = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true);
  const imports = sf.statements
    .filter(ts.isImportDeclaration)
    .map((d) => (ts.isStringLiteral(d.moduleSpecifier) ? d.moduleSpecifier.text : ''));
  const callsApi = imports.some((m) => API_MODULES.some((re) => re.test(m)));
  const out: Finding[] = imports.filter((m) => m === 'socket.io-client').map((m) => ({ kind: 'socket.io-client' as const, text: m }));
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node)) {
      const callee = node.expression;
      const name = ts.isIdentifier(callee) ? callee.text : ts.isPropertyAccessExpression(callee) ? callee.name.text : '';
      if (name === 'fetch') out.push({ kind: 'fetch', text: node.getText(sf) });
    }
    if ((ts.isAsExpression(node) || ts.isTypeAssertionExpression(node)) && callsApi) {
      const isConst = ts.isTypeReferenceNode(node.type) && node.type.getText(sf) === 'const';
      if (!isConst) out.push({ kind: 'cast', text: node.getText(sf).replace(/\s+/g, ' ') });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

const scanned = sourceFiles(SRC).map((file) => ({ file: relative(SRC, file), found: findings(file) }));

it('calls no fetch and imports no socket.io-client in apps/cli/src (every call goes through @genswarms/client)', () => {
  const untyped = scanned.flatMap(({ file, found }) => found.filter((f) => f.kind !== 'cast').map((f) => `${file}: ${f.text}`));
  expect(untyped).toEqual([]);
});

it('casts nothing in a file that calls the API, but for the listed exceptions', () => {
  const casts = scanned.flatMap(({ file, found }) => found.filter((f) => f.kind === 'cast').map((f) => `${file}: ${f.text}`));
  expect(casts.filter((c) => !(c in JUSTIFIED_CASTS))).toEqual([]);
});

it('lists no exception that is gone (the list stays exact)', () => {
  const casts = new Set(scanned.flatMap(({ file, found }) => found.filter((f) => f.kind === 'cast').map((f) => `${file}: ${f.text}`)));
  expect(Object.keys(JUSTIFIED_CASTS).filter((c) => !casts.has(c))).toEqual([]);
});

it('finds what it forbids (the scan is not blind)', () => {
  const probe = ts.createSourceFile('probe.ts', "const r = await fetch('x'); const b = r as Answer;", ts.ScriptTarget.ES2022, true);
  const kinds: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'fetch') kinds.push('fetch');
    if (ts.isAsExpression(node)) kinds.push('cast');
    ts.forEachChild(node, visit);
  };
  visit(probe);
  expect(kinds).toEqual(['fetch', 'cast']);
});
