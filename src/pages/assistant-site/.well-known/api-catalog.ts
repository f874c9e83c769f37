// RFC 9727 API catalog (RFC 9264 linkset); its content type comes from the
// gateway's content-type map (exact path /.well-known/api-catalog).
import type { APIRoute } from 'astro';
import { apiCatalog } from '../_lib/agent.ts';

export const GET: APIRoute = () => Response.json(apiCatalog());
