// Per-section llms.txt, written only when the root file would exceed its budget.
import type { APIRoute, GetStaticPaths } from 'astro';
import { docsModel, type Section } from '../../../lib/docs.ts';
import { isSplit, sectionLlms } from '../../../lib/llms.ts';

export const getStaticPaths = (async () => {
  const model = await docsModel();
  if (!isSplit(model)) return [];
  return model.sections.map((section) => ({ params: { section: section.slug }, props: { section } }));
}) satisfies GetStaticPaths;

export const GET: APIRoute = ({ props }) => new Response(sectionLlms(props.section as Section));
