// A2A v1.0 agent card, plus the top-level `url` and `protocolVersion` that
// pre-1.0 clients read.
import type { APIRoute } from 'astro';
import { docsModel } from '../../lib/docs.ts';
import { absolute, docOrIndex } from '../../lib/links.ts';
import { loadSiteConfig } from '../../lib/site-config.ts';

export const GET: APIRoute = async () => {
  const site = loadSiteConfig();
  const model = await docsModel();
  return Response.json({
    name: `${site.name} docs agent`,
    description: `Answers questions about ${site.name} from its documentation, searches it, and returns pages as Markdown.`,
    supportedInterfaces: [{ url: absolute('/ask'), protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' }],
    provider: { organization: site.name, url: site.url },
    version: site.version,
    documentationUrl: docOrIndex(model, '/docs/api/overview'),
    capabilities: { streaming: true, pushNotifications: false, extendedAgentCard: false },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: ['text/plain', 'application/json'],
    defaultOutputModes: ['application/json', 'text/event-stream', 'text/markdown'],
    skills: [
      {
        id: 'ask',
        name: 'Answer questions from the docs',
        description: 'Natural-language questions answered from the documentation, as a ranked list, a summary or a generated answer with citations (GET/POST /ask, JSON or Server-Sent Events).',
        tags: ['docs', 'question-answering', 'nlweb'],
        examples: ['How do I deploy the gateway as a container?', 'What does a 429 from the search endpoint mean?'],
        inputModes: ['text/plain', 'application/json'],
        outputModes: ['application/json', 'text/event-stream'],
      },
      {
        id: 'search',
        name: 'Search the docs',
        description: 'Full-text search over every page, ranked by relevance, filterable by content type (GET /api/search).',
        tags: ['docs', 'search'],
        examples: ['rate limit', 'llms.txt'],
        inputModes: ['text/plain'],
        outputModes: ['application/json'],
      },
      {
        id: 'fetch-markdown',
        name: 'Fetch pages as Markdown',
        description: 'Up to 20 pages at once as clean Markdown (POST /api/md/batch), or any page by appending .md to its URL.',
        tags: ['docs', 'markdown'],
        examples: ['/docs/getting-started/quickstart'],
        inputModes: ['application/json'],
        outputModes: ['application/json', 'text/markdown'],
      },
    ],
    // Pre-1.0 clients read these two top-level fields.
    url: absolute('/ask'),
    protocolVersion: '0.3.0',
  });
};
