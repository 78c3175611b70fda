/**
 * Every engine push was redacted and encoded as a socket.io packet even for a swarm no socket had
 * joined (a ring of 100 agents: ~6 pushes per routed message). A push to an unwatched swarm now touches
 * nothing: the namespace's `to` is never called; a joined room still gets its push.
 */
import type { EnginePush, SwarmService } from '@genswarms/engine';
import { bridgePushes } from '../src/socket/push-bridge';
import type { SwarmNamespace } from '../src/socket/socket-events';
import { roomOf } from '../src/socket/socket-events';

function fakeNamespace(rooms: Map<string, Set<string>>, emitted: string[]): SwarmNamespace {
  const nsp = {
    adapter: { rooms },
    sockets: new Map(),
    to: (room: string) => ({ emit: (ev: string) => emitted.push(`${room}:${ev}`) }),
  };
  return nsp as unknown as SwarmNamespace;
}

function bridge(nsp: SwarmNamespace, errors: unknown[]): (swarm: string, push: EnginePush) => void {
  let listener: ((swarm: string, push: EnginePush) => void) | undefined;
  const engine = { onPush: (l: (swarm: string, push: EnginePush) => void) => ((listener = l), () => undefined) };
  bridgePushes(nsp, engine as unknown as SwarmService, (e) => errors.push(e));
  if (listener === undefined) throw new Error('bridgePushes did not subscribe');
  return listener;
}

const STATUS: EnginePush = { type: 'agent_status', payload: { agent: 'a', state: 'busy', previous: 'idle' } };

describe('push bridge and unwatched swarms', () => {
  it('sends nothing for a swarm no socket joined', () => {
    const emitted: string[] = [];
    const errors: unknown[] = [];
    const push = bridge(fakeNamespace(new Map(), emitted), errors);
    push('ring', STATUS);
    push('ring', { type: 'turn_completed', payload: { agent: 'a', turn: 't', status: 'completed', reply_preview: null } });
    expect(emitted).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('still sends a state push to a joined room', () => {
    const emitted: string[] = [];
    const errors: unknown[] = [];
    const push = bridge(fakeNamespace(new Map([[roomOf('ring'), new Set(['s1'])]]), emitted), errors);
    push('ring', STATUS);
    push('other', STATUS);
    expect(emitted).toEqual([`${roomOf('ring')}:agent_status`]);
    expect(errors).toEqual([]);
  });
});
