// Gateway entry: `node gateway/server.ts`. Turns on Node's compile cache first (see
// compile-cache.ts), then loads the gateway itself (main.ts) — modules imported here
// statically would be compiled before the cache is on, unless NODE_COMPILE_CACHE is in the
// environment (npm start and the Dockerfile set it). Once both ports are open (index and
// manifest loaded), the heap's growth is tuned for serving (process-tunables.ts): start-up's
// burst of allocation runs fewer full collections under V8's default. Imported rather than run
// (the build's compile-cache warm-up), it does nothing.
import { setFlagsFromString } from 'node:v8';
import { enableGatewayCompileCache } from './compile-cache.ts';
import { tuneHeapGrowth } from './process-tunables.ts';

if (import.meta.main) {
  enableGatewayCompileCache();
  const { main } = await import('./main.ts');
  main().then(
    () => tuneHeapGrowth(process.execArgv, setFlagsFromString),
    (err: unknown) => {
      console.error(err instanceof Error ? err.message : err);
      process.exit(1);
    },
  );
}
