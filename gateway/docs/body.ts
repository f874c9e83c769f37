// Request bodies with a size limit that is enforced before and while reading:
// a declared Content-Length over the limit is refused unread, a chunked body is
// cut off as soon as it passes the limit.
import type { H3Event } from 'h3';
import { ProblemError } from './problem.ts';

export function mediaType(event: H3Event): string {
  return (event.req.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
}

export function isJsonType(type: string): boolean {
  return type === 'application/json' || (type.startsWith('application/') && type.endsWith('+json'));
}

function tooLarge(limit: number): ProblemError {
  // The rest of the body is never read: close the connection so it cannot be mistaken for the next request.
  return new ProblemError('payload-too-large', `The request body is larger than ${limit} bytes.`, { headers: { connection: 'close' } });
}

export async function readLimitedText(event: H3Event, limit: number): Promise<string> {
  const declared = event.req.headers.get('content-length');
  if (declared !== null && Number(declared) > limit) throw tooLarge(limit);
  const body = event.req.body;
  if (!body) return '';
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
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
