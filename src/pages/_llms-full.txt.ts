// /llms-full.txt under `astro dev` only (the underscore keeps it out of the build's routes; the
// agent-docs integration injects it for the dev server). A build writes the file page by page
// after the render instead (src/integration/llms-full.ts), so the site's whole Markdown is never
// one string in the Astro process.
import type { APIRoute } from 'astro';
import { docsModel } from '../lib/docs.ts';
import { fullLlms } from '../lib/llms.ts';

export const GET: APIRoute = async () => new Response(fullLlms(await docsModel()));
