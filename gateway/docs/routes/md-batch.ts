// POST /api/md/batch (and /api/v1/md/batch): up to 20 pages as Markdown, in request
// order; with `Prefer: respond-async` or `?async=1` a stateless job to poll instead.
import type { H3Event } from 'h3';
import { BatchMarkdownRequest, type JobAcceptedT } from '../../contract/docs-api.ts';
import { parseJsonText, readBody } from '../../http/body.ts';
import { encodeJobId } from '../job-id.ts';
import { requireMethod } from '../methods.ts';
import { checkIdempotencyKey } from '../middleware/idempotency.ts';
import { batchBody } from '../pages.ts';
import { booleanParam, param } from '../params.ts';
import { ProblemError, jsonBytesResponse, jsonResponse } from '../problem.ts';
import { requireManifest } from '../ready.ts';
import type { DocsRuntime } from '../runtime.ts';

function wantsAsync(event: H3Event): boolean {
  const prefer = (event.req.headers.get('prefer') ?? '')
    .split(/[,;]/)
    .map((p) => p.trim().toLowerCase());
  return booleanParam('async', param(event, 'async')) ?? prefer.includes('respond-async');
}

/** `/api/v1/md/batch` → `/api/v1/jobs/<id>`: the job URL stays on the version the client used. */
function jobUrl(event: H3Event, id: string): string {
  return `${event.url.pathname.replace(/\/md\/batch\/?$/, '')}/jobs/${id}`;
}

async function readPaths(event: H3Event, limit: number): Promise<string[]> {
  const { text } = await readBody(event.req, { limit, types: ['json'], endpoint: 'POST /api/md/batch' });
  const parsed = BatchMarkdownRequest.safeParse(parseJsonText(text));
  if (!parsed.success) {
    const errors = parsed.error.issues.map((i) => ({ pointer: `/${i.path.join('/')}`, detail: i.message }));
    throw new ProblemError('invalid-request-body', `The body must be {"paths": [...]} with 1 to 20 strings: ${errors.map((e) => `${e.pointer}: ${e.detail}`).join('; ')}.`, {
      extra: { errors },
    });
  }
  return parsed.data.paths;
}

export function mdBatchRoute(rt: DocsRuntime) {
  return async (event: H3Event): Promise<Response> => {
    requireMethod(event, ['POST']);
    checkIdempotencyKey(event);
    const async = wantsAsync(event);
    const paths = await readPaths(event, rt.config.bodyLimitBytes);
    if (async) {
      const id = encodeJobId(paths, rt.manifest?.buildId ?? '');
      const url = jobUrl(event, id);
      const body: JobAcceptedT = { job_id: id, status: 'accepted', status_url: url };
      return jsonResponse(body, 202, { location: url, 'preference-applied': 'respond-async' });
    }
    requireManifest(rt);
    // ≈120 KB of escape-heavy JSON, assembled from cached encoded twins and written as is by srvx's FastResponse
    return jsonBytesResponse(await batchBody(rt, paths));
  };
}
