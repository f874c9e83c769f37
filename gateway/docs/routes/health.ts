// GET /api/health (and /api/v1/health): 200 while the manifest and the search
// index are readable, else 503 naming which.
import type { H3Event } from 'h3';
import { API_VERSION, type HealthT } from '../../contract/docs-api.ts';
import { requireMethod } from '../methods.ts';
import { ProblemError, jsonBytesResponse } from '../problem.ts';
import type { DocsRuntime } from '../runtime.ts';

export function healthRoute(rt: DocsRuntime) {
  const body: HealthT = { status: 'ok', service: 'docs-read-api', version: API_VERSION };
  const bytes = Buffer.from(JSON.stringify(body));
  return async (event: H3Event): Promise<Response> => {
    requireMethod(event, ['GET']);
    const reason = await rt.unavailable();
    if (reason) throw new ProblemError('service-unavailable', `Not serving: ${reason}.`);
    return jsonBytesResponse(bytes, 200, { 'cache-control': 'no-store' });
  };
}
