import { loadSiteConfig } from './site-config.ts';
import type { DocsModel } from './docs.ts';

/** Absolute URL on the docs site. */
export function absolute(path: string): string {
  return `${loadSiteConfig().url}${path}`;
}

/** Absolute URL of a doc page when the content has it, else of /llms.txt (user content may lack our pages). */
export function docOrIndex(model: DocsModel, path: string): string {
  return absolute(model.byPath.has(path) ? path : '/llms.txt');
}
