/** Hash routes: nothing of the state (and never the token) goes to the server in a URL. */
export type Route =
  | { readonly page: 'login' }
  | { readonly page: 'swarms' }
  | { readonly page: 'swarm'; readonly swarm: string }
  | { readonly page: 'agent'; readonly swarm: string; readonly agent: string };

const NAME = '([A-Za-z][A-Za-z0-9_-]{0,63})';
const SWARM_RE = new RegExp(`^#/swarms/${NAME}$`);
const AGENT_RE = new RegExp(`^#/swarms/${NAME}/agents/${NAME}$`);

export function parseRoute(hash: string): Route {
  if (hash === '#/login') return { page: 'login' };
  const agent = AGENT_RE.exec(hash);
  if (agent !== null) return { page: 'agent', swarm: agent[1] ?? '', agent: agent[2] ?? '' };
  const swarm = SWARM_RE.exec(hash);
  if (swarm !== null) return { page: 'swarm', swarm: swarm[1] ?? '' };
  return { page: 'swarms' };
}

export function hrefOf(route: Route): string {
  switch (route.page) {
    case 'login':
      return '#/login';
    case 'swarms':
      return '#/';
    case 'swarm':
      return `#/swarms/${route.swarm}`;
    case 'agent':
      return `#/swarms/${route.swarm}/agents/${route.agent}`;
  }
}
