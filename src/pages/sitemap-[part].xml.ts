// /sitemap-<n>.xml: the parts a sitemap index lists once the site passes 50,000 URLs (none before).
import type { APIRoute, GetStaticPaths } from 'astro';
import { docsModel } from '../lib/docs.ts';
import { siteSitemapFiles } from '../lib/site-sitemap.ts';
import { site } from '../components/site.ts';

export const getStaticPaths: GetStaticPaths = async () =>
  siteSitemapFiles(site, await docsModel())
    .slice(1)
    .map((file) => ({ params: { part: file.path.slice('/sitemap-'.length, -'.xml'.length) }, props: { body: file.body } }));

export const GET: APIRoute = ({ props }) => new Response(props.body as string);
