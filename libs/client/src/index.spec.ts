import * as lib from './index';

const PINNED = [
  'ClientError',
  'GenswarmsClient',
  'OPERATION_ROUTES',
  'SOCKET_CONNECT_TIMEOUT_MS',
  'SwarmSocket',
  'connectSwarmSocket',
  'isClientError',
];

it('pins the public surface of @genswarms/client', () => {
  expect(Object.keys(lib).sort()).toEqual([...PINNED].sort());
});
