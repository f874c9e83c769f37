import type { APIRoute } from 'astro';
import { docsModel } from '../lib/docs.ts';
import { fullLlms } from '../lib/llms.ts';

export const GET: APIRoute = async () => new Response(fullLlms(await docsModel()));
