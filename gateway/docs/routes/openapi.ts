// GET /api/openapi (and /api/v1/openapi): the OpenAPI description the build wrote.
import type { H3Event } from 'h3';
import { fastResponse } from '../../http/fast-response.ts';
import { requireMethod } from '../methods.ts';
import type { DocsRuntime } from '../runtime.ts';
import { notFoundResponse } from './static.ts';

export function openapiRoute(rt: DocsRuntime) {
  return async (event: H3Event): Promise<Response> => {
    requireMethod(event, ['GET']);
    const file = await rt.files.exact('api/openapi');
    if (!file) return notFoundResponse(rt, event, 'The OpenAPI description is missing from the build output.');
    const body = event.req.method === 'HEAD' ? null : await rt.files.read(file);
    return fastResponse(body, 200, { 'content-type': file.contentType, etag: file.etag, 'cache-control': 'public, max-age=0, must-revalidate', 'content-length': String(file.size) });
  };
}
