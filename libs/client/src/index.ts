/** @genswarms/client: typed REST and socket.io client of the genswarms server (types generated from docs/openapi.json). */
export { ClientError, isClientError } from './lib/client-error';
export type { ClientErrorCode, LocalErrorCode } from './lib/client-error';
export { GenswarmsClient } from './lib/rest-client';
export type { CallArgs, ClientOptions, ErrorCodeOf, OperationId, ResponseOf } from './lib/rest-client';
export { SOCKET_CONNECT_TIMEOUT_MS, SwarmSocket, connectSwarmSocket } from './lib/swarm-socket';
export type { AckOf, SocketEvent, SocketPush, SwarmSocketOptions, TypedSwarmSocket } from './lib/swarm-socket';
export { OPERATION_ROUTES } from './lib/generated/api-types';
export type { ApiErrorCode, Operations, Schemas, SocketEvents, SocketPushes } from './lib/generated/api-types';
