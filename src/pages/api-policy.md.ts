// The versioning and deprecation policy that every API response links to
// (`Link: </api-policy.md>; rel="deprecation"`).
import type { APIRoute } from 'astro';
import { absolute } from '../lib/links.ts';
import { loadSiteConfig } from '../lib/site-config.ts';

export const GET: APIRoute = () => {
  const site = loadSiteConfig();
  const text = `# ${site.name} API versioning and deprecation policy

> How the docs read API is versioned, how an endpoint is deprecated, and what happens at its Sunset date.

## Versions

- This is API v1. It is reachable unversioned (\`${absolute('/api/search')}\`, tracking the latest version) and under the \`/api/v1\` prefix (\`${absolute('/api/v1/search')}\`, \`${absolute('/api/v1/ask')}\`).
- Breaking changes ship under a new \`/api/vN\` prefix. Existing integrations stay on their version; pin \`/api/v1\` if you cannot follow the latest.
- Additive changes (new optional fields, new endpoints, new headers) can happen within a version. Clients must ignore fields they do not know.
- The OpenAPI description (${absolute('/openapi.json')}) carries the contract version in \`info.version\`.

## Deprecation

- Nothing is deprecated today: no response carries \`Deprecation\` or \`Sunset\`.
- When an endpoint is deprecated, its responses carry (RFC 8594 and RFC 9745):
  - \`Deprecation\`: the IMF-fixdate on which the deprecation was announced;
  - \`Sunset\`: an IMF-fixdate at least six months after the \`Deprecation\` date;
  - \`Link: <migration notes>; rel="deprecation"\` pointing at the migration notes, and \`rel="successor-version"\` at the replacement.
- The endpoint keeps working until its Sunset date. After it, the endpoint answers \`410 Gone\` with an RFC 9457 Problem whose \`replacement\` member links the replacement.
- Every API response links this policy: \`Link: </api-policy.md>; rel="deprecation"\`.

## What clients should do

- Watch for the \`Deprecation\` header and log it; plan the move before the \`Sunset\` date.
- Retry transient 5xx answers with exponential backoff (1 s, 2 s, 4 s). Do not retry 4xx answers except 429, after \`Retry-After\` seconds.
`;
  return new Response(text);
};
