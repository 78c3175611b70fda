/** GENSWARMS_AGENT_UID_RANGE against the host's id databases (docs/security.md "One identity per agent"). */
import { parseAgentIdMode } from '../../src/index';

const EMPTY = { passwd: '', group: '', subuid: '', subgid: '' };
const ROOT = { uid: 0, gid: 0 };

describe('the agent id range and the host', () => {
  test.each<[string, Partial<typeof EMPTY>, string]>([
    [
      'a user inside the range',
      { passwd: 'root:x:0:0::/root:/bin/sh\nalice:x:300050:300050::/home/alice:/bin/sh\n' },
      '/etc/passwd has alice with id 300050',
    ],
    ['a group inside the range', { group: 'root:x:0:\nops:x:300000:\n' }, '/etc/group has ops with id 300000'],
    ['subordinate uids overlapping it', { subuid: 'bob:299000:65536\n' }, '/etc/subuid gives bob ids 299000-364535'],
    ['subordinate gids overlapping it', { subgid: 'carol:300100:10\n' }, '/etc/subgid gives carol ids 300100-300109'],
  ])('refuses a range with %s', (_label, db, reason) => {
    expect(() => parseAgentIdMode({ GENSWARMS_AGENT_UID_RANGE: '300000-300100' }, ROOT, () => ({ ...EMPTY, ...db }))).toThrow(reason);
  });

  test.each<[string, Partial<typeof EMPTY>]>([
    ['ids just outside it', { passwd: 'a:x:299999:1::/:/bin/sh\nb:x:300101:1::/:/bin/sh\n', subuid: 'c:300101:65536\nd:100000:200000\n' }],
    ['malformed lines', { passwd: 'garbage\n::\nx:y:z\n', subuid: 'e:abc:10\n' }],
  ])('accepts a range with %s', (_label, db) => {
    expect(parseAgentIdMode({ GENSWARMS_AGENT_UID_RANGE: '300000-300100' }, ROOT, () => ({ ...EMPTY, ...db }))).toEqual({
      kind: 'per_agent',
      range: { first: 300000, last: 300100 },
    });
  });
});
