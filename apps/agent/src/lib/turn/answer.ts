import type { LlmMode } from '../config/agent-config';
import { answerFromScript } from '../config/mock-script';
import { chatCompletionsUrl } from '../llm/chat-url';
import type { ChatMessage } from '../llm/chat-client';
import { requestChatWithRetry } from '../llm/chat-with-retry';
import type { RetryOptions } from '../llm/chat-with-retry';

/** Model answer for one turn, an error for the receipt, or aborted (SIGTERM: no receipt, redo on restart). */
export type Answer = { kind: 'ok'; text: string } | { kind: 'error'; error: string } | { kind: 'aborted' };

/** Error text of the receipt written when neither an endpoint nor a mock script is configured. */
export const NO_ENDPOINT_ERROR = 'no LLM endpoint configured';

/** Asks the configured source: the mock script (matched on the raw content), the endpoint (with retries), or nothing. */
export async function produceAnswer(
  llm: Exclude<LlmMode, { kind: 'client' }>,
  messages: readonly ChatMessage[],
  content: string,
  signal: AbortSignal,
  retry: RetryOptions = {},
): Promise<Answer> {
  switch (llm.kind) {
    case 'mock':
      return { kind: 'ok', text: answerFromScript(llm.script, content) };
    case 'none':
      return { kind: 'error', error: NO_ENDPOINT_ERROR };
    case 'endpoint': {
      const result = await requestChatWithRetry(
        { url: chatCompletionsUrl(llm.endpoint), messages, model: llm.model, apiKey: llm.apiKey, upstreamHost: llm.upstreamHost, signal },
        retry,
      );
      return result.kind === 'ok' ? { kind: 'ok', text: result.content } : result;
    }
  }
}
