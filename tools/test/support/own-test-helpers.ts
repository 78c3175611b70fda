/**
 * Finds what @genswarms/test-kit already provides, written again in a spec or test support file:
 * a function (declaration, or a const/let holding one) named like the kit's polling or refusal helpers,
 * and a hand-rolled polling loop. A loop polls when it awaits a timer (`await sleep(…)`, `await delay(…)`,
 * `await setTimeout(…)`, `await new Promise(… setTimeout …)`) and it is not a plain counted repetition:
 * it has no condition or a condition other than `i < N`, or it returns or breaks out of itself.
 * `setImmediate` turns are not timers (they let queued callbacks run, they wait for no time).
 */
import ts from 'typescript';

/** Names only the kit may define: one polling helper, one pair of refusal helpers. */
export const KIT_HELPER_NAME = /^(waitFor|waitUntil|until|eventually|poll\w*|retryUntil|codeOf|refusal)$/;

export interface OwnHelper {
  readonly line: number;
  readonly what: string;
}

const TIMER_CALLEES = /^(sleep|delay|setTimeout|wait|pause)$/;

function isTimerAwait(node: ts.Node): boolean {
  if (!ts.isAwaitExpression(node)) return false;
  const x = node.expression;
  if (ts.isCallExpression(x)) return ts.isIdentifier(x.expression) && TIMER_CALLEES.test(x.expression.text);
  if (!ts.isNewExpression(x) || !ts.isIdentifier(x.expression) || x.expression.text !== 'Promise') return false;
  let timer = false;
  const find = (n: ts.Node): void => {
    if (ts.isIdentifier(n) && n.text === 'setTimeout') timer = true;
    ts.forEachChild(n, find);
  };
  find(x);
  return timer;
}

/** True when `node` (not counting nested functions) satisfies `test` somewhere. */
function contains(node: ts.Node, test: (n: ts.Node) => boolean, skip: (n: ts.Node) => boolean = ts.isFunctionLike): boolean {
  let found = false;
  const walk = (n: ts.Node): void => {
    if (found || skip(n)) return;
    if (test(n)) found = true;
    else ts.forEachChild(n, walk);
  };
  walk(node);
  return found;
}

type Loop = ts.ForStatement | ts.WhileStatement | ts.DoStatement | ts.ForOfStatement | ts.ForInStatement;

function isLoop(n: ts.Node): n is Loop {
  return ts.isForStatement(n) || ts.isWhileStatement(n) || ts.isDoStatement(n) || ts.isForOfStatement(n) || ts.isForInStatement(n);
}

/** `i < N`, `i <= list.length`: a bound on a counter and nothing else. */
function isCountedCondition(cond: ts.Expression): boolean {
  if (!ts.isBinaryExpression(cond)) return false;
  const op = cond.operatorToken.kind;
  if (op !== ts.SyntaxKind.LessThanToken && op !== ts.SyntaxKind.LessThanEqualsToken) return false;
  const plain = (e: ts.Expression): boolean => ts.isIdentifier(e) || ts.isNumericLiteral(e) || ts.isPropertyAccessExpression(e);
  return ts.isIdentifier(cond.left) && plain(cond.right);
}

function leavesItself(loop: Loop): boolean {
  // a break inside an inner loop or switch leaves that one, not this loop; a return leaves them all
  const inner = (n: ts.Node): boolean => ts.isFunctionLike(n) || isLoop(n) || ts.isSwitchStatement(n);
  const breaks = (n: ts.Node): boolean => ts.isBreakStatement(n) && n.label === undefined;
  return contains(loop.statement, breaks, inner) || contains(loop.statement, ts.isReturnStatement);
}

function isPollingLoop(loop: Loop): boolean {
  if (!contains(loop.statement, isTimerAwait)) return false;
  if (ts.isForOfStatement(loop) || ts.isForInStatement(loop)) return leavesItself(loop);
  const cond = ts.isForStatement(loop) ? loop.condition : loop.expression;
  if (cond === undefined || cond.kind === ts.SyntaxKind.TrueKeyword) return true;
  return !isCountedCondition(cond) || leavesItself(loop);
}

function helperName(node: ts.Node): string | undefined {
  if (ts.isFunctionDeclaration(node) && node.name !== undefined) return node.name.text;
  if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer !== undefined) {
    const init = node.initializer;
    if (ts.isArrowFunction(init) || ts.isFunctionExpression(init)) return node.name.text;
  }
  return undefined;
}

/** Every own polling helper, polling loop and refusal helper in one file's text. */
export function findOwnHelpers(fileName: string, text: string): OwnHelper[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
  const found: OwnHelper[] = [];
  const at = (n: ts.Node): number => source.getLineAndCharacterOfPosition(n.getStart(source)).line + 1;
  const visit = (node: ts.Node): void => {
    const name = helperName(node);
    if (name !== undefined && KIT_HELPER_NAME.test(name)) found.push({ line: at(node), what: `defines ${name}: use @genswarms/test-kit` });
    if (isLoop(node) && isPollingLoop(node)) found.push({ line: at(node), what: 'a polling loop: use waitFor from @genswarms/test-kit' });
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}
