import type { APIRoute, GetStaticPaths } from 'astro';
import { docsModel } from '../../../lib/docs.ts';

export const getStaticPaths = (async () => {
  const model = await docsModel();
  return model.pages.map((page) => ({ params: { section: page.section, page: page.page }, props: { markdown: page.markdown } }));
}) satisfies GetStaticPaths;

export const GET: APIRoute = ({ props }) =>
  new Response(props.markdown as string, { headers: { 'Content-Type': 'text/markdown; charset=utf-8' } });
