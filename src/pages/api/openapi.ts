// Same document as /openapi.json, at the path the spec also names.
import type { APIRoute } from 'astro';
import { openApiJson } from '../../lib/openapi-document.ts';

export const GET: APIRoute = () => new Response(openApiJson());
