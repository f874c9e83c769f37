// /docs/<section>.md: the Markdown twin of a section's index page (src/lib/index-twins.ts).
import type { APIRoute, GetStaticPaths } from 'astro';
import { docsModel, type Section } from '../../lib/docs.ts';
import { sectionIndexTwin } from '../../lib/index-twins.ts';

export const getStaticPaths = (async () => {
  const model = await docsModel();
  return model.sections.map((section) => ({ params: { section: section.slug }, props: { section } }));
}) satisfies GetStaticPaths;

export const GET: APIRoute = ({ props }) =>
  new Response(sectionIndexTwin(props.section as Section), { headers: { 'Content-Type': 'text/markdown; charset=utf-8' } });
