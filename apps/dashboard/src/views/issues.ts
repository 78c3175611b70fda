import { h } from 'preact';
import type { JSX } from 'preact';
import { ClientError } from '../lib/api';
import type { Issue } from '../lib/types';

/** An API refusal as the CLI prints it: `code: message`, then one line per issue (path: message). */
export function ErrorBox(props: { error: unknown }): JSX.Element | null {
  const e = props.error;
  if (e === undefined || e === null) return null;
  if (!(e instanceof ClientError)) return h('p', { class: 'error', role: 'alert' }, e instanceof Error ? e.message : String(e));
  const issues = Array.isArray(e.details['issues']) ? (e.details['issues'] as Issue[]) : [];
  const agent = typeof e.details['agent'] === 'string' ? ` (agent ${e.details['agent']})` : '';
  return h(
    'div',
    { class: 'error', role: 'alert' },
    h('p', {}, h('code', {}, e.code), `: ${e.message}${agent}`),
    issues.length === 0
      ? null
      : h(
          'ul',
          { class: 'issues' },
          issues.map((i, n) =>
            h(
              'li',
              { key: n },
              i.path !== undefined ? `${i.path}: ${i.message ?? ''}` : `${i.code ?? 'issue'}${i.name !== undefined ? ` ${i.name}` : ''}`,
            ),
          ),
        ),
  );
}
