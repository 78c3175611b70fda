import { h } from 'preact';
import type { JSX } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { parse as parseYaml } from 'yaml';
import { call } from '../lib/api';
import { detectFormat } from '../lib/format';
import type { SwarmSummary } from '../lib/types';
import { ErrorBox } from './issues';

async function loadSwarms(): Promise<SwarmSummary[]> {
  return (await call('listSwarms')).swarms;
}

/** `busy 2, idle 3` (states sorted by name). */
function byState(counts: Readonly<Record<string, number>> | undefined): string {
  // An older server sends no agents_by_state: the column stays empty.
  return Object.entries(counts ?? {})
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([state, n]) => `${state} ${n}`)
    .join(', ');
}

/** Every swarm (status, agents by state, started), and a form to start one from JSON or YAML. */
export function SwarmsPage(): JSX.Element {
  const [swarms, setSwarms] = useState<SwarmSummary[] | undefined>(undefined);
  const [error, setError] = useState<unknown>(undefined);
  const refresh = (): void => {
    loadSwarms().then(setSwarms, setError);
  };
  useEffect(refresh, []);
  return h(
    'section',
    {},
    h('h1', {}, 'Swarms'),
    h(ErrorBox, { error }),
    swarms === undefined
      ? h('p', {}, 'Loading…')
      : h(
          'table',
          { class: 'grid', id: 'swarms' },
          h(
            'thead',
            {},
            h(
              'tr',
              {},
              ['Swarm', 'Status', 'Agents', 'By state', 'Objects', 'Started'].map((c) => h('th', { key: c, scope: 'col' }, c)),
            ),
          ),
          h(
            'tbody',
            {},
            swarms.length === 0 ? h('tr', {}, h('td', { colSpan: 6 }, 'No swarm yet.')) : null,
            swarms.map((s) =>
              h(
                'tr',
                { key: s.name },
                h('td', {}, h('a', { href: `#/swarms/${s.name}` }, s.name)),
                h('td', {}, h('span', { class: `state state-${s.status}` }, s.status)),
                h('td', {}, String(s.agent_count)),
                h('td', {}, byState(s.agents_by_state) || '—'),
                h('td', {}, String(s.object_count)),
                h('td', {}, s.started_at ?? '—'),
              ),
            ),
          ),
        ),
    h(StartForm, { onStarted: refresh }),
  );
}

/** Validate (`POST /api/config/validate`, the CLI's `config validate --server`), then start. */
function StartForm(props: { onStarted: () => void }): JSX.Element {
  const [text, setText] = useState('');
  const [fileName, setFileName] = useState<string | undefined>(undefined);
  const [error, setError] = useState<unknown>(undefined);
  const [note, setNote] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const onFile = async (e: Event): Promise<void> => {
    const file = (e.target as HTMLInputElement).files?.[0];
    if (file === undefined) return;
    setFileName(file.name);
    setText(await file.text());
  };
  const start = async (e: Event): Promise<void> => {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    setNote(undefined);
    try {
      const format = detectFormat(text, fileName);
      await call('validateConfig', { body: { content: text, format } });
      const config: unknown = format === 'json' ? JSON.parse(text) : parseYaml(text);
      const started = await call('startSwarm', { body: { config } });
      setNote(`Started ${started.swarm_name}.`);
      props.onStarted();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return h(
    'form',
    { class: 'start', id: 'start-swarm', onSubmit: (e: Event) => void start(e) },
    h('h2', {}, 'Start a swarm'),
    h('label', { for: 'config-text' }, 'Swarm config (JSON or YAML)'),
    h('textarea', {
      id: 'config-text',
      rows: 10,
      spellcheck: false,
      value: text,
      onInput: (e: Event) => (setText((e.target as HTMLTextAreaElement).value), setFileName(undefined)),
    }),
    h('label', { for: 'config-file' }, 'or upload a file'),
    h('input', { id: 'config-file', type: 'file', accept: '.json,.yaml,.yml', onChange: (e: Event) => void onFile(e) }),
    h('button', { type: 'submit', disabled: busy || text.trim() === '' }, 'Validate and start'),
    h(ErrorBox, { error }),
    note === undefined ? null : h('p', { class: 'ok', role: 'status' }, note),
  );
}
