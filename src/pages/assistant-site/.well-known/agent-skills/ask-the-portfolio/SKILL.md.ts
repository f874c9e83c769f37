import type { APIRoute } from 'astro';
import { skillMarkdown } from '../../../_lib/agent.ts';
import { portfolioModel } from '../../../_lib/portfolio.ts';

export const GET: APIRoute = async () => new Response(skillMarkdown(await portfolioModel()));
