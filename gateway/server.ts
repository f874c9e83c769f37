// Gateway entry: `node gateway/server.ts`. Turns on Node's compile cache first (see
// compile-cache.ts), then loads the gateway itself (main.ts) — modules imported here
// statically would be compiled before the cache is on.
import { enableGatewayCompileCache } from './compile-cache.ts';

enableGatewayCompileCache();
const { main } = await import('./main.ts');
main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
