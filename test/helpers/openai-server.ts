// The fake model server (scripts/lib/openai-server.ts) bound to a vitest suite.
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { openAiServer, type OpenAiServer, type Options } from '../../scripts/lib/openai-server.ts';

export * from '../../scripts/lib/openai-server.ts';

/**
 * A server for the enclosing suite (or file): started before its tests, closed after them; before each test its
 * record is emptied and it is back in the mode it was started with.
 */
export function useOpenAiServer(options: Options = {}): OpenAiServer {
  const { api, listen } = openAiServer(options);
  beforeAll(listen);
  afterAll(() => api.close());
  beforeEach(() => {
    api.requests.length = 0;
    api.setMode(options.mode ?? 'ok');
  });
  return api;
}
