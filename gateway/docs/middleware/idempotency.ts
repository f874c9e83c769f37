// Idempotency-Key: every endpoint is a read, so the key is only validated and
// echoed for the client's retry correlation (/ask and /api/md/batch call this
// after their method check).
import type { H3Event } from 'h3';
import { apiLimits } from '../../contract/docs-api.ts';
import { ProblemError } from '../problem.ts';
import { state } from '../request-state.ts';

const printable = /^[\x20-\x7e]+$/;

export function checkIdempotencyKey(event: H3Event): void {
  const key = event.req.headers.get('idempotency-key');
  if (key === null) return;
  if (key.length === 0 || key.length > apiLimits.idempotencyKeyMax) {
    throw new ProblemError('invalid-header', `\`Idempotency-Key\` must be 1 to ${apiLimits.idempotencyKeyMax} characters long (got ${key.length}).`);
  }
  if (!printable.test(key)) throw new ProblemError('invalid-header', '`Idempotency-Key` may only contain printable ASCII characters and spaces.');
  state(event).idempotencyKey = key;
}
