import type { APIRoute } from 'astro';
import { llmsTxt } from './_lib/agent.ts';
import { portfolioModel } from './_lib/portfolio.ts';

export const GET: APIRoute = async () => new Response(llmsTxt(await portfolioModel()));
