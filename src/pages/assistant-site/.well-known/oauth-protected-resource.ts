// RFC 9728 protected-resource metadata: it states that nothing is protected.
import type { APIRoute } from 'astro';
import { oauthProtectedResource } from '../_lib/agent.ts';
import { portfolioModel } from '../_lib/portfolio.ts';

export const GET: APIRoute = async () => Response.json(oauthProtectedResource(await portfolioModel()));
