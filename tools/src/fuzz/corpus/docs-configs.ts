import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gateStart, parseConfigText } from '@genswarms/ir-gate';
import { REPO_ROOT } from '../../build-once/build-once';

/** Pages whose fenced yaml/json blocks hold swarm configs. */
const PAGES = ['docs/configuration.md', 'docs/ir.md', 'docs/runners.md', 'docs/agent.md', 'README.md'];

/** A config every backend accepts at the gate, kept as a seed when the docs yield none. */
const FALLBACK: Record<string, unknown> = {
  name: 'demo',
  agents: [
    { name: 'planner', backend: { type: 'mock', opts: { replies: ['{{content}}'] } }, connections: ['coder'] },
    { name: 'coder', backend: 'local', client: { command: ['/bin/echo'] }, config: { env: { A: 'b' } } },
  ],
  objects: [{ name: 'board', handler: 'kv', config: {} }],
  options: { max_agents: 10 },
};

/**
 * The valid swarm configs of the docs (fenced ```yaml / ```json blocks that the start gate accepts), plus
 * one fallback: the seeds the structure-aware config fuzzers mutate key by key.
 */
export function docsConfigs(): Array<Record<string, unknown>> {
  const seeds: Array<Record<string, unknown>> = [FALLBACK];
  for (const page of PAGES) {
    const text = readFileSync(join(REPO_ROOT, page), 'utf8');
    for (const m of text.matchAll(/```(yaml|json)\n([\s\S]*?)```/g)) {
      const loaded = parseConfigText(m[2] as string, m[1] as 'yaml' | 'json');
      if (loaded.kind !== 'ok') continue;
      if (gateStart(loaded.value).kind === 'ok') seeds.push(loaded.value as Record<string, unknown>);
    }
  }
  return seeds;
}
