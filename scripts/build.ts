// `npm run build`: the Astro build; the Pagefind index, CDN header files and the
// assistant tree are written by src/integration/agent-docs.ts at its end. SIGINT and
// SIGTERM reach the build's own processes (scripts/lib/child-signals.ts).
import { runAstroBuild } from './lib/astro-build.ts';
import { forwardSignals } from './lib/child-signals.ts';

forwardSignals();
const code = await runAstroBuild({ stdio: 'inherit' });
process.exit(code);
