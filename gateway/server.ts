// Gateway entry: `node gateway/server.ts`. Turns on Node's compile cache first (see
// compile-cache.ts), then loads the gateway itself (main.ts) — modules imported here
// statically would be compiled before the cache is on.
import { setFlagsFromString } from 'node:v8';
import { enableGatewayCompileCache } from './compile-cache.ts';
import { tuneHeapGrowth } from './process-tunables.ts';

enableGatewayCompileCache();
tuneHeapGrowth(process.execArgv, setFlagsFromString);
const { main } = await import('./main.ts');
main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
