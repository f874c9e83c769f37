// The highlighting worker thread (highlight.ts): tokenizes the code blocks it is sent and
// answers each with its runs (highlight-tokens.ts), in any order, by id.
import { parentPort } from 'node:worker_threads';
import { tokenRuns } from './highlight-tokens.ts';

export interface TokenizeRequest { id: number; code: string; grammar: string }
export type TokenizeAnswer = { id: number; lines: [string, string][][] } | { id: number; error: string };

parentPort!.on('message', ({ id, code, grammar }: TokenizeRequest) => {
  tokenRuns(code, grammar).then(
    (lines) => parentPort!.postMessage({ id, lines } satisfies TokenizeAnswer),
    (err: unknown) => parentPort!.postMessage({ id, error: String((err as Error)?.message ?? err) } satisfies TokenizeAnswer),
  );
});
