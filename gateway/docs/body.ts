// Request bodies of the docs API: size-limited, errors as Problems.
import type { H3Event } from 'h3';
import { mediaTypeOf } from '../http/media-type.ts';
import { readLimitedBody } from '../http/read-limited-body.ts';
import { ProblemError } from './problem.ts';

export function mediaType(event: H3Event): string {
  return mediaTypeOf(event.req.headers.get('content-type'));
}

/** The body as text; 413 Payload Too Large over `limit` bytes. */
export async function readLimitedText(event: H3Event, limit: number): Promise<string> {
  const text = await readLimitedBody(event.req, limit);
  if (text === null) {
    // Past the limit the reader drains at most 1 MiB more; the connection is closed, not reused.
    throw new ProblemError('payload-too-large', `The request body is larger than ${limit} bytes.`, { headers: { connection: 'close' } });
  }
  return text;
}

/** Parses JSON text; 400 Invalid request body when it is not JSON. */
export function parseJson(text: string): unknown {
  if (text.trim() === '') throw new ProblemError('invalid-request-body', 'The request body is empty; send a JSON object.');
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new ProblemError('invalid-request-body', `The request body is not valid JSON: ${(err as Error).message}`);
  }
}
