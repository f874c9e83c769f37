import type { APIRoute } from 'astro';
import { openApiJson } from '../lib/openapi-document.ts';

export const GET: APIRoute = () => new Response(openApiJson());
