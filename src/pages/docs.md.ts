// /docs.md: the Markdown twin of /docs (src/lib/index-twins.ts).
import type { APIRoute } from 'astro';
import { docsModel } from '../lib/docs.ts';
import { docsIndexTwin } from '../lib/index-twins.ts';

export const GET: APIRoute = async () =>
  new Response(docsIndexTwin(await docsModel()), { headers: { 'Content-Type': 'text/markdown; charset=utf-8' } });
