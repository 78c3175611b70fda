/** GENSWARMS_LLM_ENDPOINT_API (README.md (Configuration), docs/clients.md "Endpoint compatibility"). */
import { join } from 'node:path';
import { loadServerConfig } from '../src/index';
import type { ServerEnv } from '../src/index';
import { tempDir } from './support/harness';

const dir = tempDir('gs-clientcfg-');
const uid = process.getuid?.() ?? 0;
const load = (extra: ServerEnv): ReturnType<typeof loadServerConfig> =>
  loadServerConfig({ GENSWARMS_HOME: join(dir.path, 'home'), GENSWARMS_SWARM_CONFIG_DIR: dir.path, ...extra }, { cwd: dir.path, uid });

afterAll(() => dir.cleanup());

describe('GENSWARMS_LLM_ENDPOINT_API', () => {
  test.each([
    [undefined, undefined],
    [' ', undefined],
    ['anthropic-messages', ['anthropic-messages']],
    ['openai-responses, openai-chat', ['openai-responses', 'openai-chat']],
  ])('%j → %j (unset: inferred from the endpoint host)', async (value, apis) => {
    const res = await load(value === undefined ? {} : { GENSWARMS_LLM_ENDPOINT_API: value });
    expect(res.kind).toBe('ok');
    if (res.kind === 'ok') expect(res.config.endpointApis).toEqual(apis);
  });

  test.each([
    ['openai', '"openai" is not one of openai-responses, openai-chat, anthropic-messages'],
    ['openai-chat,,', '"" is not one of openai-responses, openai-chat, anthropic-messages'],
    ['Anthropic-Messages', '"Anthropic-Messages" is not one of openai-responses, openai-chat, anthropic-messages'],
  ])('%j refuses to start', async (value, reason) => {
    expect(await load({ GENSWARMS_LLM_ENDPOINT_API: value })).toMatchObject({
      kind: 'invalid',
      variable: 'GENSWARMS_LLM_ENDPOINT_API',
      line: `genswarms: invalid GENSWARMS_LLM_ENDPOINT_API: ${reason}`,
    });
  });
});

describe('GENSWARMS_CLIENTS_DIR', () => {
  it('defaults to $GENSWARMS_HOME/clients', async () => {
    const res = await load({});
    expect(res.kind).toBe('ok');
    if (res.kind === 'ok') expect(res.config.clientsDir).toBe(join(res.config.home, 'clients'));
  });

  it('takes an absolute path, normalized', async () => {
    const res = await load({ GENSWARMS_CLIENTS_DIR: ' /opt/gs//clients/ ' });
    expect(res.kind === 'ok' ? res.config.clientsDir : res).toBe('/opt/gs/clients');
  });

  test.each(['clients', './x', '~/clients', '/a\0b'])('%j refuses to start', async (value) => {
    expect(await load({ GENSWARMS_CLIENTS_DIR: value })).toMatchObject({
      kind: 'invalid',
      line: 'genswarms: invalid GENSWARMS_CLIENTS_DIR: expected an absolute path',
    });
  });
});
