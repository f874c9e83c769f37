// The public URL a site is served at (SITE_URL, ASSISTANT_SITE_URL), one rule for the build
// (src/lib/site-config.ts) and the gateway (config.ts), so the two never disagree about what
// a build was made for. It is an origin — scheme, host, port — and nothing more: every page
// links to /docs/… from the root of it, the discovery files and llms.txt put it before those
// paths, and the assistant's chat compares it with a browser's Origin header. A path
// (https://example.com/docs-site) would give absolute links that root-relative ones
// contradict; a query, fragment or user name would end up inside every absolute URL.
import { z } from 'zod';

const ORIGIN_EXAMPLE = 'https://docs.example.com';

/** Validates a site URL and gives its origin (lower-case host, no default port, no trailing slash). */
export const siteUrl = z
  .string()
  .trim()
  .transform((value, ctx) => {
    if (!/^https?:\/\/\S+$/i.test(value) || !URL.canParse(value)) {
      ctx.addIssue({ code: 'custom', message: `must be an absolute http(s) URL, e.g. ${ORIGIN_EXAMPLE}` });
      return z.NEVER;
    }
    const url = new URL(value);
    const problem =
      url.username || url.password
        ? 'must not carry a user name or password'
        : url.search || url.hash
          ? `must not have a query or fragment (${url.origin})`
          : url.pathname.replace(/\/+$/, '') !== ''
            ? `must be the origin the site is served at, without a path (${url.origin}, not ${value}): its pages link to /docs/… from the root of it; serve it on a host of its own`
            : undefined;
    if (problem) {
      ctx.addIssue({ code: 'custom', message: problem });
      return z.NEVER;
    }
    return url.origin;
  });
