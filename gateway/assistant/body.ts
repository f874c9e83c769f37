// Request bodies: JSON only, size-limited before anything is parsed (declared
// Content-Length first, then while streaming), validated with the zod contract.
import type { z } from 'zod';
import { isJsonType, mediaTypeOf } from '../http/media-type.ts';
import { readLimitedBody } from '../http/read-limited-body.ts';
import { AssistantError } from './errors.ts';

export function requireJson(req: Request): void {
  if (!isJsonType(mediaTypeOf(req.headers.get('content-type')))) {
    const got = req.headers.get('content-type');
    throw new AssistantError('unsupported_media_type', `Send the body as JSON with Content-Type: application/json${got ? ` (got ${got.split(';')[0]})` : ''}.`);
  }
}

/** The body as text, refusing more than `limit` bytes. */
export async function readLimitedText(req: Request, limit: number): Promise<string> {
  const text = await readLimitedBody(req, limit);
  // Past the limit the reader drains at most 1 MiB more; the connection is closed, not reused.
  if (text === null) throw new AssistantError('payload_too_large', `Request body too large: at most ${limit} bytes.`, { Connection: 'close' });
  return text;
}

export function parseJson(text: string): unknown {
  if (text.trim() === '') throw new AssistantError('invalid_request', 'Request body is empty: send a JSON object.');
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new AssistantError('invalid_request', `Request body is not valid JSON: ${(err as Error).message}`);
  }
}

/** One readable sentence naming every problem, e.g. "messages.0.content: content must be at most 2000 characters". */
export function validationMessage(error: z.ZodError): string {
  const parts = error.issues.slice(0, 5).map((i) => {
    const path = i.path.map(String).join('.');
    return path ? `${path}: ${i.message}` : i.message;
  });
  return `Invalid request: ${parts.join('; ')}${error.issues.length > 5 ? ` (and ${error.issues.length - 5} more)` : ''}.`;
}

export function validate<T extends z.ZodType>(schema: T, data: unknown): z.infer<T> {
  const result = schema.safeParse(data);
  if (!result.success) throw new AssistantError('invalid_request', validationMessage(result.error));
  return result.data;
}

export async function readJsonBody<T extends z.ZodType>(req: Request, schema: T, limit: number): Promise<z.infer<T>> {
  requireJson(req);
  return validate(schema, parseJson(await readLimitedText(req, limit)));
}
