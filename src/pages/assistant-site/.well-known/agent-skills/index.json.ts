// Agent Skills discovery index (0.2.0); each digest is the sha256 of the bytes served at its url.
import type { APIRoute } from 'astro';
import { agentSkillsIndex } from '../../_lib/agent.ts';
import { portfolioModel } from '../../_lib/portfolio.ts';

export const GET: APIRoute = async () => new Response(JSON.stringify(agentSkillsIndex(await portfolioModel()), null, 2));
