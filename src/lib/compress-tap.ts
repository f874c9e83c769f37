// The meeting point of the build's compress-ahead worker (src/integration/compress-ahead.ts,
// started by the integration) and the middleware that hands it each rendered response
// (src/middleware.ts, bundled into Astro's prerender code). The two live in different module
// graphs of the same process, so the tap is a property of globalThis, present only during a
// build: the dev server and the gateway never see one.
const key = Symbol.for('agent-docs.compress-ahead');

export interface CompressTap {
  /** Whether a rendered URL path is worth offering: a text route, while the worker runs. */
  wants(pathname: string): boolean;
  /** A rendered body; compressed in the background, or dropped if the worker is behind. */
  offer(body: Uint8Array): void;
}

export const compressTap = (): CompressTap | undefined => (globalThis as Record<symbol, CompressTap | undefined>)[key];

export function setCompressTap(tap: CompressTap | undefined): void {
  (globalThis as Record<symbol, CompressTap | undefined>)[key] = tap;
}
