import { EngineError } from '../errors/engine-error';
import { createHandlerRegistry } from './builtins';
import { checkConfigPatch, countPatchKeys } from './config-patch';
import type { ObjectHandler } from './handler';
import { ObjectInstance } from './object-instance';
import { refusal } from '@genswarms/test-kit';

const reg = createHandlerRegistry();
const counter = reg.get('counter') as ObjectHandler;
const recorder = reg.get('recorder') as ObjectHandler;

describe('handler registry', () => {
  it('has the built-ins and refuses names outside the grammar', () => {
    expect(reg.names()).toEqual(['counter', 'echo', 'metrics', 'recorder', 'tick']);
    expect(() => reg.register('../evil', recorder)).toThrow(TypeError);
    expect(reg.has('__proto__')).toBe(false);
  });
});

describe('checkConfigPatch (docs/rest-api.md order)', () => {
  test.each([
    ['not an object', counter, ['step'], ['validation_failed', 400]],
    ['null', counter, null, ['validation_failed', 400]],
    [
      'host-escape key even if schema says mutable',
      { ...counter, configSchema: { extra_path: { mutable: true } } },
      { extra_path: ['/'] },
      ['forbidden_config_keys', 422],
    ],
    ['host-escape before size', counter, { extra_ro_binds: [], big: Array.from({ length: 300 }, () => 1) }, ['forbidden_config_keys', 422]],
    ['more than 200 keys at all depths', counter, { step: Array.from({ length: 201 }, () => 1) }, ['patch_too_large', 400]],
    ['size before schema', recorder, { a: Array.from({ length: 201 }, () => 1) }, ['patch_too_large', 400]],
    ['no schema', recorder, { step: 2 }, ['no_config_schema', 422]],
    ['immutable key', counter, { start: 5, step: 2 }, ['immutable_keys', 422]],
    ['secret key is immutable', counter, { api_token: 'x' }, ['immutable_keys', 422]],
    ['unknown key is immutable', counter, { colour: 'red' }, ['immutable_keys', 422]],
  ])('%s', (_n, handler, patch, [code, status]) => {
    const { code: c, status: s } = refusal(EngineError, () => checkConfigPatch(handler as ObjectHandler, patch));
    expect([c, s]).toEqual([code, status]);
  });

  it('names the refused keys sorted', () => {
    expect(refusal(EngineError, () => checkConfigPatch(counter, { start: 1, api_token: 'x' })).details).toEqual({
      keys: ['api_token', 'start'],
    });
  });

  it('accepts a mutable key', () => {
    expect(checkConfigPatch(counter, { step: 3 })).toEqual({ step: 3 });
  });

  it('counts nested keys and array contents', () => {
    expect(countPatchKeys({ a: { b: 1, c: [1, { d: 2 }] } })).toBe(6);
  });
});

describe('ObjectInstance', () => {
  it('survives a throwing handler and keeps its state', async () => {
    const flaky: ObjectHandler = {
      init: () => ({ n: 0 }),
      onMessage: (msg, state) => {
        if (msg.content === 'boom') throw new Error('boom');
        return { state: { n: (state as { n: number }).n + 1 } };
      },
    };
    const o = new ObjectInstance('o', 'flaky', flaky, {});
    await o.start();
    const msg = { swarm: 's', object: 'o', from: 'a', content: 'x', type: 'direct' as const };
    await o.deliver(msg);
    expect(await o.deliver({ ...msg, content: 'boom' })).toEqual({ kind: 'failed', error: 'boom' });
    await o.deliver(msg);
    expect(o.state).toEqual({ n: 2 });
    expect(o.lifecycle).toBe('running');
  });

  it('restores the old config when re-init fails', async () => {
    const o = new ObjectInstance('c', 'counter', counter, { step: 2 });
    await o.start();
    expect(await o.reconfigure({ step: 'nope' })).toMatchObject({ ok: false });
    expect(o.config).toEqual({ step: 2 });
    expect(o.state).toEqual({ count: 0, step: 2 });
  });

  it('is in error state when init fails, and asks say so', async () => {
    const o = new ObjectInstance('c', 'counter', counter, { step: 'x' });
    expect(await o.start()).toMatchObject({ ok: false });
    expect(await o.ask({ swarm: 's', object: 'c', from: 'a', content: 'q', type: 'ask' })).toEqual({ kind: 'error_state' });
  });
});
