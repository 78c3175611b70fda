import { chatCompletionsUrl } from './chat-url';

describe('chatCompletionsUrl', () => {
  test.each([
    ['https://api.openai.com/v1', 'https://api.openai.com/v1/chat/completions'],
    ['https://api.openai.com/v1/', 'https://api.openai.com/v1/chat/completions'],
    ['https://api.openai.com/v1/chat/completions', 'https://api.openai.com/v1/chat/completions'],
    ['https://api.openai.com/v1/chat/completions/', 'https://api.openai.com/v1/chat/completions'],
    ['http://127.0.0.1:17080', 'http://127.0.0.1:17080/v1/chat/completions'],
    ['http://127.0.0.1:17080/', 'http://127.0.0.1:17080/v1/chat/completions'],
    ['https://openrouter.ai/api/v1', 'https://openrouter.ai/api/v1/chat/completions'],
    ['http://127.0.0.1:17080/v1?api-version=2024', 'http://127.0.0.1:17080/v1/chat/completions?api-version=2024'],
  ])('%s → %s', (endpoint, expected) => {
    expect(chatCompletionsUrl(endpoint).href).toBe(expected);
  });
});
