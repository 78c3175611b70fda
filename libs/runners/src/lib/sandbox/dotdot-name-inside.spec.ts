import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { RunnerContext } from '../port';
import { assertSafeHostPath } from './mount-safety';
import { isSameOrInside, isSameOrInsideNormalized, overlapsNormalized } from './path-rules';

// A directory whose name starts with `..` (`..x`) lies inside its parent; only `..` itself climbs out. The
// lexical rule read `path.relative` output starting with `..` as "outside", so a bind of `<other agent's
// named workspace>/..x` passed the protected-path rule.
describe('a first component named ..x lies inside its parent', () => {
  it.each([
    ['/b/..x', '/b', true],
    ['/b/..', '/b', false],
    ['/b/../c', '/b', false],
    ['/b', '/b', true],
    ['/bc', '/b', false],
    ['/b/c', '/', true],
    ['/', '/b', false],
  ])('isSameOrInside(%s, %s) is %s', (a, b, inside) => {
    expect(isSameOrInside(a, b)).toBe(inside);
  });

  it.each([
    ['/b/..x', '/b', true],
    ['/b', '/b', true],
    ['/bc', '/b', false],
    ['/b/c', '/', true],
    ['/', '/b', false],
  ])('isSameOrInsideNormalized(%s, %s) is %s', (a, b, inside) => {
    expect(isSameOrInsideNormalized(a, b)).toBe(inside);
  });

  it.each([
    ['/b/c', '/b', true],
    ['/b', '/b/c', true],
    ['/bc', '/b', false],
    ['/b', '/bc', false],
  ])('overlapsNormalized(%s, %s) is %s', (a, b, overlap) => {
    expect(overlapsNormalized(a, b)).toBe(overlap);
  });

  describe('mount safety', () => {
    let root: string;
    beforeEach(() => {
      root = realpathSync(mkdtempSync(path.join(tmpdir(), 'gs-dotdot-')));
      mkdirSync(path.join(root, 'home'));
    });
    afterEach(() => rmSync(root, { recursive: true, force: true }));

    it("refuses a skill named ..x inside another agent's named workspace", () => {
      const named = path.join(root, 'named-ws');
      const skill = path.join(named, '..x');
      mkdirSync(skill, { recursive: true });
      const home = path.join(root, 'home');
      const ctx = { home, protectedPaths: () => [named] } as unknown as RunnerContext;
      const who = { swarm: 's', agent: 'a', workspace: path.join(home, 'workspaces', 's', 'a') };
      expect(() => assertSafeHostPath(skill, 'skill', who, ctx)).toThrow(/another agent/);
    });
  });
});
