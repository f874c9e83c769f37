// GET /api/jobs/{jobId} (and /api/v1/…): the job id is the request, so the first
// poll runs it and answers `completed` with the result.
import type { H3Event } from 'h3';
import type { JobStatusT } from '../../contract/docs-api.ts';
import { BufferPieces } from '../../http/buffer-pieces.ts';
import { decodeJobId } from '../job-id.ts';
import { requireMethod } from '../methods.ts';
import { batchBody } from '../pages.ts';
import { ProblemError, jsonBytesResponse } from '../problem.ts';
import { requireManifest } from '../ready.ts';
import type { DocsRuntime } from '../runtime.ts';

const CLOSE = Buffer.from('}');

export function jobsRoute(rt: DocsRuntime) {
  return async (event: H3Event): Promise<Response> => {
    requireMethod(event, ['GET']);
    const id = event.context.params?.jobId ?? '';
    const paths = decodeJobId(id, rt.manifest?.buildId ?? '');
    if (!paths) {
      throw new ProblemError('not-found', 'Unknown job id: it is malformed, truncated or altered, or was issued for an earlier build of the site. Job ids come from the 202 response of POST /api/md/batch; submit the batch again.');
    }
    requireManifest(rt);
    // JSON.stringify of a JobStatusT, with the result assembled from the cached encoded twins
    const head: Omit<JobStatusT, 'result'> = { job_id: id, status: 'completed' };
    const open = Buffer.from(`${JSON.stringify(head).slice(0, -1)},"result":`);
    return jsonBytesResponse(new BufferPieces([open, ...(await batchBody(rt, paths)).pieces, CLOSE]));
  };
}
