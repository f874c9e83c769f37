// Titles for the search dialog's filter values: the index keeps slugs (the gateway
// reads them), the reader sees "Getting started" (scripts/search-enhance.ts).
// One small file for the site instead of a list in every page.
import { docsModel } from '../lib/docs.ts';
import { typeLabels } from '../components/nav.ts';

export async function GET(): Promise<Response> {
  const model = await docsModel();
  const section = Object.fromEntries(model.sections.map((s) => [s.slug, s.title]));
  return new Response(JSON.stringify({ section, type: typeLabels }));
}
