// Agent access and authentication, as Markdown (carries the JSON auth declaration).
import type { APIRoute } from 'astro';
import { authMarkdown } from './_lib/agent.ts';
import { portfolioModel } from './_lib/portfolio.ts';

export const GET: APIRoute = async () =>
  new Response(authMarkdown(await portfolioModel()), { headers: { 'Content-Type': 'text/markdown; charset=utf-8' } });
