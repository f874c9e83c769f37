// Markdown twin of every portfolio page: /index.md, /about.md, …
import type { APIRoute, GetStaticPaths } from 'astro';
import { portfolioModel } from './_lib/portfolio.ts';

export const getStaticPaths = (async () => {
  const model = await portfolioModel();
  return model.pages.map((p) => ({ params: { page: p.slug }, props: { markdown: p.markdown } }));
}) satisfies GetStaticPaths;

export const GET: APIRoute = ({ props }) =>
  new Response(props.markdown as string, { headers: { 'Content-Type': 'text/markdown; charset=utf-8' } });
