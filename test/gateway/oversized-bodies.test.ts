// Uploads far over the body limit, chunked (no Content-Length to refuse up front) or
// declared, to every POST endpoint of both apps: each gets its 413 in its API's envelope,
// not a connection reset, and the gateway keeps serving. The server answers as soon as the
// limit is passed and then reads and throws away a bounded amount before closing (lingering
// close), so the answer is not destroyed by a reset while the client is still sending.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type RunningGateway } from '../helpers/gateway.ts';
import { fixtureBuild } from '../helpers/manifest.ts';
import { postChunked } from '../helpers/raw-http.ts';
import { envelope, SITE } from '../assistant/helpers/assistant.ts';
import { expectProblem } from './helpers.ts';

const { distDir, site } = fixtureBuild();
const json = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

/** `mb` MiB of spaces (valid JSON whitespace, so only the size is wrong), in 64 KiB chunks. */
function upload(mb: number): Uint8Array[] {
  const chunk = new Uint8Array(64 * 1024).fill(0x20);
  return Array.from({ length: mb * 16 }, () => chunk);
}

let gw: RunningGateway;
beforeAll(async () => {
  gw = await startGateway(distDir, { RATE_LIMIT_MAX: '100000', SEARCH_WORKERS: '1', ASSISTANT_SITE_URL: SITE, ASSISTANT_RATE_LIMIT_MAX: '1000' });
});
afterAll(() => gw?.stop());

describe('docs API: 413 Problem for bodies far over the limit', () => {
  for (const path of ['/api/md/batch', '/ask', '/api/mcp']) {
    it(`10 MiB chunked to ${path}`, async () => {
      const res = await postChunked(gw.url, path, json, upload(10));
      expect(res.headers.get('connection')).toBe('close');
      const problem = await expectProblem(res, 'payload-too-large', site, path);
      expect(problem.detail).toMatch(/65536 bytes/);
    });
  }

  it('10 MiB with a declared Content-Length, refused before reading', async () => {
    const res = await postChunked(gw.url, '/api/md/batch', json, upload(10), 'length');
    await expectProblem(res, 'payload-too-large', site, '/api/md/batch');
  });

  it('40 MiB chunked (past what the server reads after answering) still gets its answer', async () => {
    const res = await postChunked(gw.url, '/api/md/batch', json, upload(40));
    await expectProblem(res, 'payload-too-large', site, '/api/md/batch');
  });

  it('the gateway keeps serving afterwards', async () => {
    const res = await fetch(`${gw.url}/api/health`);
    expect(res.status).toBe(200);
    await res.arrayBuffer();
  });
});

describe('assistant: 413 payload_too_large for bodies far over the limit', () => {
  for (const path of ['/ask', '/api/chat', '/api/mcp']) {
    it(`10 MiB chunked to ${path}`, async () => {
      const res = await postChunked(gw.assistantUrl, path, { ...json, origin: SITE }, upload(10));
      expect(res.status).toBe(413);
      expect(res.headers.get('connection')).toBe('close');
      expect((await envelope(res)).code).toBe('payload_too_large');
    });
  }
});
