import type { AgentAnswer, Conversation } from './agent-turn';
import { chatEvents, chatObject, readChatRequest } from './chat-api';
import { messagesError, messagesEvents, messagesObject, readMessagesRequest } from './messages-api';
import { readResponsesRequest, responsesEvents, responsesObject } from './responses-api';
import type { SseEvent } from './sse';

type Answer = Exclude<AgentAnswer, { kind: 'http_error' }>;

/** One wire protocol the mock speaks: how to read a request, and how to render an answer or an error. */
export interface WireProtocol {
  readonly name: 'chat_completions' | 'responses' | 'messages';
  read(body: unknown): Conversation;
  object(answer: Answer, id: string, model: string): Record<string, unknown>;
  events(answer: Answer, id: string, model: string): SseEvent[];
  error(status: number, message: string): Record<string, unknown>;
}

const openAiError = (_status: number, message: string): Record<string, unknown> => ({ error: { message, type: 'mock_error' } });

/** `POST <path>` → its protocol. */
export const WIRE_PROTOCOLS: ReadonlyMap<string, WireProtocol> = new Map<string, WireProtocol>([
  ['/v1/chat/completions', { name: 'chat_completions', read: readChatRequest, object: chatObject, events: chatEvents, error: openAiError }],
  [
    '/v1/responses',
    { name: 'responses', read: readResponsesRequest, object: responsesObject, events: responsesEvents, error: openAiError },
  ],
  ['/v1/messages', { name: 'messages', read: readMessagesRequest, object: messagesObject, events: messagesEvents, error: messagesError }],
]);
