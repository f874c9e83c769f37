import type { APIRoute } from 'astro';
import { docsModel } from '../lib/docs.ts';
import { rootLlms } from '../lib/llms.ts';

export const GET: APIRoute = async () => new Response(rootLlms(await docsModel()));
