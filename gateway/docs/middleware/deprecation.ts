// Deprecated endpoints carry Deprecation/Sunset headers (added by the pipeline)
// and answer 410 once their Sunset has passed.
import type { Middleware } from 'h3';
import { ProblemError } from '../problem.ts';
import { state } from '../request-state.ts';
import type { DocsRuntime } from '../runtime.ts';

export function deprecation(rt: DocsRuntime): Middleware {
  return (event, next) => {
    const st = state(event);
    if (st.meta.kind !== 'api' || !st.meta.routePath || rt.deprecations.size === 0) return next();
    const d = rt.deprecations.get(st.meta.routePath);
    if (!d) return next();
    st.deprecation = d;
    if (Date.now() >= d.sunsetMs) {
      throw new ProblemError('gone', `${st.meta.routePath} was retired on ${d.sunset}; use ${d.replacement} instead.`, {
        extra: { replacement: d.replacement, links: [{ rel: 'successor-version', href: d.replacement }] },
      });
    }
    return next();
  };
}
