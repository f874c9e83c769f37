// The assistant site's build manifest (same shape as the docs manifest): the
// integration indexes every page listed here with Pagefind, and the assistant app
// reads it to ground answers in the pages' Markdown twins.
import type { APIRoute } from 'astro';
import { sha256 } from '../../lib/markdown-twin.ts';
import { portfolioModel, twinFile } from './_lib/portfolio.ts';

export const GET: APIRoute = async () => {
  const model = await portfolioModel();
  const pages = model.pages.map((p) => ({
    path: p.path,
    title: p.title,
    description: p.description,
    type: 'docs',
    section: 'portfolio',
    md: twinFile(p),
    hash: p.hash,
    order: p.order === Number.MAX_SAFE_INTEGER || p.order < 0 ? undefined : p.order,
    headings: p.headings,
  }));
  const buildId = sha256(JSON.stringify([model.site, pages.map((p) => [p.path, p.hash, p.title])])).slice(0, 16);
  return Response.json({ manifestVersion: 1, buildId, site: model.site, pages });
};
