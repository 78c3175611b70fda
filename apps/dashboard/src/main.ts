import { h, render } from 'preact';
import type { JSX } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { setUnauthorizedHandler } from './lib/api';
import { hrefOf, parseRoute } from './lib/router';
import type { Route } from './lib/router';
import { clearToken, readToken } from './lib/session';
import { AgentPage } from './views/agent-page';
import { LoginPage } from './views/login-page';
import { SwarmPage } from './views/swarm-page';
import { SwarmsPage } from './views/swarms-page';

/** The last refusal code, shown by the login page (kept in memory: never in the URL or storage). */
let deniedCode: string | undefined;

/** Any 401 (REST or socket): forget the token and return to the login with the code. */
function denied(code: string): void {
  deniedCode = code;
  clearToken();
  location.hash = hrefOf({ page: 'login' });
}

function currentRoute(): Route {
  return readToken() === undefined ? { page: 'login' } : parseRoute(location.hash);
}

function App(): JSX.Element {
  const [route, setRoute] = useState<Route>(currentRoute);
  useEffect(() => {
    const onHash = (): void => setRoute(currentRoute());
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);
  const logout = (): void => denied('logged_out');
  const body = ((): JSX.Element => {
    switch (route.page) {
      case 'login':
        return h(LoginPage, {
          code: deniedCode,
          onLogin: () => ((deniedCode = undefined), (location.hash = '#/'), setRoute(currentRoute())),
        });
      case 'swarms':
        return h(SwarmsPage, {});
      case 'swarm':
        return h(SwarmPage, { key: route.swarm, swarm: route.swarm });
      case 'agent':
        return h(AgentPage, { key: `${route.swarm}/${route.agent}`, swarm: route.swarm, agent: route.agent });
    }
  })();
  return h(
    'div',
    { class: 'shell' },
    h(
      'header',
      { class: 'top' },
      h('a', { class: 'brand', href: '#/' }, 'genswarms'),
      route.page === 'login' ? null : h('button', { type: 'button', class: 'link', onClick: logout }, 'Log out'),
    ),
    h('main', { id: 'content' }, body),
  );
}

setUnauthorizedHandler(denied);
const root = document.getElementById('app');
if (root !== null) render(h(App, {}), root);
