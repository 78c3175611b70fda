import { h } from 'preact';
import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import { call, ClientError } from '../lib/api';
import { clearToken, storeToken } from '../lib/session';

/**
 * Paste the API token (empty for a token-less loopback server). It is checked with `GET /api/swarms`
 * and kept in sessionStorage only.
 */
export function LoginPage(props: { code: string | undefined; onLogin: () => void }): JSX.Element {
  const [token, setToken] = useState('');
  const [error, setError] = useState<string | undefined>(props.code === 'logged_out' ? undefined : props.code);
  const [busy, setBusy] = useState(false);
  const submit = async (e: Event): Promise<void> => {
    e.preventDefault();
    setBusy(true);
    storeToken(token);
    try {
      await call('listSwarms');
      props.onLogin();
    } catch (err) {
      clearToken();
      setError(err instanceof ClientError ? err.code : 'unreachable');
    } finally {
      setBusy(false);
    }
  };
  return h(
    'section',
    { class: 'login' },
    h('h1', {}, 'Log in'),
    h(
      'form',
      { onSubmit: (e: Event) => void submit(e) },
      h('label', { for: 'token' }, 'API token (GENSWARMS_API_TOKEN; empty for a loopback server without one)'),
      h('input', {
        id: 'token',
        type: 'password',
        autocomplete: 'off',
        value: token,
        onInput: (e: Event) => setToken((e.target as HTMLInputElement).value),
      }),
      h('button', { type: 'submit', disabled: busy }, 'Log in'),
    ),
    error === undefined ? null : h('p', { class: 'error', role: 'alert', id: 'login-error' }, `Refused: ${error}`),
    h('p', { class: 'hint' }, 'The token stays in this tab (sessionStorage) and is sent only to this server.'),
  );
}
