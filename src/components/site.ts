// The site config, validated once per build (not once per component per page).
import { loadSiteConfig, type SiteConfig } from '../lib/site-config.ts';

export const site: SiteConfig = loadSiteConfig();
