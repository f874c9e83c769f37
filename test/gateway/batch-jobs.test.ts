// POST /api/md/batch and GET /api/jobs/{jobId} on the real gateway: byte-identical
// twins, per-path failures (traversal attempts included), the async round trip,
// tampered job ids and every 4xx.
import { deflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { BatchMarkdownResponse, JobAccepted, JobStatus } from '../../gateway/contract/docs-api.ts';
import { fixtureBuild, readSiteFile } from '../helpers/manifest.ts';
import { expectApiHeaders, expectProblem, expectValid, useGateway } from './helpers.ts';

const { distDir, manifest, site } = fixtureBuild();
const gw = useGateway(distDir);

const batch = (body: unknown, opts: { qs?: string; headers?: Record<string, string>; path?: string } = {}) =>
  fetch(`${gw.url}${opts.path ?? '/api/md/batch'}${opts.qs ?? ''}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...opts.headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

async function okBatch(res: Response) {
  expect(res.status, await res.clone().text()).toBe(200);
  expectApiHeaders(res.headers);
  return expectValid(BatchMarkdownResponse, await res.json());
}

const pages = manifest.pages.slice(0, 3);

describe('POST /api/md/batch', () => {
  it('returns each page as its exact Markdown twin, in request order, duplicates kept', async () => {
    const paths = [pages[1]!.path, pages[0]!.path, pages[1]!.path, `${pages[2]!.path}.md`];
    const body = await okBatch(await batch({ paths }));
    expect(body.results.map((r) => r.path)).toEqual(paths);
    for (const r of body.results) {
      expect(r.ok).toBe(true);
      if (!r.ok) continue;
      const page = manifest.pages.find((p) => p.path === r.path.replace(/\.md$/, ''))!;
      expect(r.title).toBe(page.title);
      expect(r.markdown).toBe(readSiteFile(distDir, page.md));
    }
  });

  it('takes exactly 20 paths and refuses 0 or 21', async () => {
    const twenty = Array.from({ length: 20 }, (_, i) => manifest.pages[i % manifest.pages.length]!.path);
    expect((await okBatch(await batch({ paths: twenty }))).results.length).toBe(20);
    for (const paths of [[], [...twenty, twenty[0]]]) {
      const p = await expectProblem(await batch({ paths }), 'invalid-request-body', site, '/api/md/batch');
      expect(p.errors?.[0]?.pointer).toBe('/paths');
    }
  });

  it('reports unknown pages inline with status 404', async () => {
    const body = await okBatch(await batch({ paths: ['/docs/nope/missing', pages[0]!.path] }));
    const [missing, found] = body.results;
    expect(missing).toMatchObject({ path: '/docs/nope/missing', ok: false, status: 404 });
    expect(found!.ok).toBe(true);
  });

  it('refuses traversal and anything that is not a doc path, per path, with 400', async () => {
    const attempts = [
      '../../etc/passwd',
      '/docs/../../etc/passwd',
      '/docs/api/../../../build-manifest.json',
      '/docs/%2e%2e/%2e%2e/etc/passwd',
      '/docs/api%2f..%2f..%2fetc/passwd',
      '/docs/%252e%252e/x',
      '/etc/passwd',
      '/build-manifest.json',
      'C:\\Windows\\win.ini',
      '/docs\\api\\search',
      '/docs/api/search?x=1',
      '/docs/api/search#frag',
      '/docs/api/search\u0000.md',
      'docs/api/search',
      '/docs/API/Search',
      '/docs/api',
      '/docs/api/search/extra',
      '',
      '//docs/api/search',
      'https://docs.example.test/docs/api/search',
    ];
    const body = await okBatch(await batch({ paths: attempts }));
    body.results.forEach((r, i) => {
      expect(r.path).toBe(attempts[i]);
      expect(r.ok, attempts[i]).toBe(false);
      if (!r.ok) {
        expect(r.status, attempts[i]).toBe(400);
        expect(r.detail).toMatch(/\S/);
        expect(r.detail).not.toMatch(/root:|\[fonts\]/);
      }
    });
  });

  it('echoes Idempotency-Key and refuses a key over 255 characters', async () => {
    const res = await batch({ paths: [pages[0]!.path] }, { headers: { 'idempotency-key': 'batch-1' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('idempotency-key')).toBe('batch-1');
    await expectProblem(await batch({ paths: [pages[0]!.path] }, { headers: { 'idempotency-key': 'x'.repeat(256) } }), 'invalid-header', site);
  });

  it('400 for bodies that are not JSON or not {paths: [...]}', async () => {
    for (const raw of ['not json', '', '{"paths": "a"}', '{"paths": [1]}', '{"path": ["/docs/a/b"]}', '[]']) {
      await expectProblem(await batch(raw), 'invalid-request-body', site, '/api/md/batch');
    }
  });

  it('415 for non-JSON bodies, 413 over the limit, 405 for GET', async () => {
    const form = await fetch(`${gw.url}/api/md/batch`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'paths=/docs/a/b' });
    await expectProblem(form, 'unsupported-media-type', site, '/api/md/batch');
    const big = JSON.stringify({ paths: ['/docs/a/' + 'b'.repeat(70_000)] });
    await expectProblem(await batch(big), 'payload-too-large', site, '/api/md/batch');
    const get = await fetch(`${gw.url}/api/md/batch`);
    await expectProblem(get, 'method-not-allowed', site);
    expect(get.headers.get('allow')).toBe('POST, OPTIONS');
  });

  it('is also served under /api/v1/md/batch', async () => {
    const body = await okBatch(await batch({ paths: [pages[0]!.path] }, { path: '/api/v1/md/batch' }));
    expect(body.results[0]!.ok).toBe(true);
  });
});

describe('async batch jobs', () => {
  for (const how of ['Prefer: respond-async', '?async=1', '?async=true'] as const) {
    it(`accepts a job with ${how}; the first poll is completed with the result`, async () => {
      const paths = [pages[0]!.path, '/docs/nope/missing', '../x'];
      const res = await batch({ paths }, how.startsWith('?') ? { qs: how } : { headers: { prefer: 'respond-async, wait=5' } });
      expect(res.status).toBe(202);
      expectApiHeaders(res.headers);
      const accepted = expectValid(JobAccepted, await res.json());
      expect(accepted.status).toBe('accepted');
      expect(accepted.job_id).toMatch(/^j1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{8}$/);
      expect(res.headers.get('location')).toBe(`/api/jobs/${accepted.job_id}`);
      expect(accepted.status_url).toBe(res.headers.get('location'));
      expect(res.headers.get('preference-applied')).toBe('respond-async');

      const poll = await fetch(new URL(res.headers.get('location')!, gw.url));
      expect(poll.status).toBe(200);
      expectApiHeaders(poll.headers);
      const status = expectValid(JobStatus, await poll.json());
      expect(status).toMatchObject({ job_id: accepted.job_id, status: 'completed' });
      const sync = await okBatch(await batch({ paths }));
      expect(status.result).toEqual(sync);
      // Polling again gives the same answer (stateless, idempotent).
      expect(await (await fetch(new URL(res.headers.get('location')!, gw.url))).json()).toEqual(status);
    });
  }

  it('keeps the job URL on /api/v1 when the request used it', async () => {
    const res = await batch({ paths: [pages[0]!.path] }, { qs: '?async=1', path: '/api/v1/md/batch' });
    expect(res.status).toBe(202);
    const location = res.headers.get('location')!;
    expect(location.startsWith('/api/v1/jobs/j1.')).toBe(true);
    expect((await fetch(new URL(location, gw.url))).status).toBe(200);
  });

  it('does not accept a job for an invalid body, and rejects bad async values', async () => {
    await expectProblem(await batch({ paths: [] }, { qs: '?async=1' }), 'invalid-request-body', site);
    await expectProblem(await batch({ paths: [pages[0]!.path] }, { qs: '?async=maybe' }), 'invalid-parameter', site);
    const sync = await batch({ paths: [pages[0]!.path] }, { qs: '?async=0' });
    expect(sync.status).toBe(200);
  });

  it('404 Not found for unknown, malformed and tampered job ids', async () => {
    const res = await batch({ paths: [pages[0]!.path] }, { qs: '?async=1' });
    const { job_id } = expectValid(JobAccepted, await res.json());
    const [, payload, check] = job_id.split('.');
    const otherPayload = deflateRawSync(Buffer.from(JSON.stringify(['/docs/x/y']))).toString('base64url');
    const flip = (s: string) => s.slice(0, -1) + (s.endsWith('A') ? 'B' : 'A');
    const bad = [
      'nope',
      'j1',
      `j2.${payload}.${check}`,
      `j1.${payload}.${flip(check!)}`,
      `j1.${flip(payload!)}.${check}`,
      `j1.${otherPayload}.${check}`,
      `j1.${payload}`,
      `j1.!!!!.${check}`,
      `j1.${Buffer.from('not deflate').toString('base64url')}.AAAAAAAA`,
    ];
    for (const id of bad) {
      const poll = await fetch(`${gw.url}/api/jobs/${encodeURIComponent(id)}`);
      const body = await expectProblem(poll, 'not-found', site);
      expect(body.title).toBe('Not found');
      expectApiHeaders(poll.headers);
    }
    const post = await fetch(`${gw.url}/api/jobs/${job_id}`, { method: 'POST' });
    await expectProblem(post, 'method-not-allowed', site);
    expect(post.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
  });
});
