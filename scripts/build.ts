// `npm run build`: the Astro build; the Pagefind index, CDN header files and the
// assistant tree are written by src/integration/agent-docs.ts at its end.
import { runAstroBuild } from './lib/astro-build.ts';

const code = await runAstroBuild({ stdio: 'inherit' });
process.exit(code);
