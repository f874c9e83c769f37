// /sitemap.xml: the whole site, or past 50,000 URLs the index of /sitemap-<n>.xml.
import type { APIRoute } from 'astro';
import { docsModel } from '../lib/docs.ts';
import { siteSitemapFiles } from '../lib/site-sitemap.ts';
import { site } from '../components/site.ts';

export const GET: APIRoute = async () => new Response(siteSitemapFiles(site, await docsModel())[0]!.body);
