// CSRF guard of POST /api/chat: the Origin header must be present and be the
// assistant site's origin (ASSISTANT_SITE_URL) or one of ASSISTANT_ALLOWED_ORIGINS.
import { AssistantError } from './errors.ts';

export interface OriginGuard {
  /** Throws 403 `forbidden` unless the request's Origin is allowed; returns it. */
  check(origin: string | null): string;
  /** Allowed origin other than the site's own: needs CORS headers. */
  isCrossOrigin(origin: string): boolean;
  readonly siteOrigin: string;
}

export function createOriginGuard(siteUrl: string, allowed: string[]): OriginGuard {
  const siteOrigin = new URL(siteUrl).origin;
  const extra = new Set(allowed.map((o) => new URL(o).origin));
  return {
    siteOrigin,
    check(origin) {
      if (!origin) {
        throw new AssistantError('forbidden', 'Origin header required: /api/chat only answers the browser pages of this site. Server-side clients use POST /ask.');
      }
      let normalized: string | null = null;
      try {
        normalized = origin === 'null' ? null : new URL(origin).origin;
      } catch {
        normalized = null;
      }
      if (normalized === null || (normalized !== siteOrigin && !extra.has(normalized))) {
        throw new AssistantError('forbidden', `Origin ${origin} is not allowed to use /api/chat. Server-side clients use POST /ask.`);
      }
      return normalized;
    },
    isCrossOrigin: (origin) => origin !== siteOrigin && extra.has(origin),
  };
}
