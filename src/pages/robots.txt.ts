// /robots.txt: everything may be fetched; it names the sitemap.
import type { APIRoute } from 'astro';
import { robotsTxt } from '../lib/sitemap.ts';
import { site } from '../components/site.ts';

export const GET: APIRoute = () => new Response(robotsTxt(site.url));
