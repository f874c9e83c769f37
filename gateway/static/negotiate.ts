// Minimal Accept negotiation: only the questions the gateway asks.

interface Range {
  type: string;
  q: number;
  index: number;
}

function parseAccept(accept: string | null): Range[] {
  if (!accept) return [];
  return accept.split(',').map((part, index) => {
    const [type = '', ...params] = part.split(';').map((s) => s.trim().toLowerCase());
    const qParam = params.find((p) => p.startsWith('q='));
    const q = qParam ? Number(qParam.slice(2)) : 1;
    return { type, q: Number.isFinite(q) ? q : 0, index };
  });
}

/** The weight of `type` in Accept; explicit only (no wildcards) when `exact`. */
function weight(ranges: Range[], type: string, exact: boolean): Range | undefined {
  const major = type.split('/')[0];
  const candidates = ranges.filter((r) => r.type === type || (!exact && (r.type === `${major}/*` || r.type === '*/*')));
  // The most specific range decides (RFC 9110 §12.5.1).
  return candidates.sort((a, b) => specificity(b.type) - specificity(a.type))[0];
}

const specificity = (t: string) => (t === '*/*' ? 0 : t.endsWith('/*') ? 1 : 2);

/** True when the client explicitly asks for text/markdown at least as much as for text/html. */
export function prefersMarkdown(accept: string | null): boolean {
  const ranges = parseAccept(accept);
  const md = weight(ranges, 'text/markdown', true);
  if (!md || md.q <= 0) return false;
  const html = weight(ranges, 'text/html', true);
  if (!html) return true;
  return md.q > html.q || (md.q === html.q && md.index < html.index);
}

/** True when text/html is explicitly acceptable and preferred over JSON (browsers). */
export function prefersHtml(accept: string | null): boolean {
  const ranges = parseAccept(accept);
  const html = weight(ranges, 'text/html', true);
  if (!html || html.q <= 0) return false;
  const json = weight(ranges, 'application/json', false);
  return !json || html.q >= json.q;
}

/** True when the client asks for an event stream (for /ask). */
export function acceptsEventStream(accept: string | null): boolean {
  const r = weight(parseAccept(accept), 'text/event-stream', true);
  return !!r && r.q > 0;
}
