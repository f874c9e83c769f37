// In-page WCAG 2 contrast audit: every visible element with its own text is
// checked against the background it is painted on (ancestor backgrounds
// composited, transparent layers included). Runs inside the browser via
// page.evaluate, so it must stay self-contained (no imports, no closures).

export interface ContrastFailure {
  element: string;
  text: string;
  ratio: number;
  required: number;
  color: string;
  background: string;
}

export function auditContrast(): ContrastFailure[] {
  type RGBA = [number, number, number, number];
  const parse = (c: string): RGBA | null => {
    const m = /rgba?\(([^)]+)\)/.exec(c);
    if (!m) return null;
    const p = m[1]!.split(/[\s,/]+/).filter(Boolean).map(Number);
    return [p[0]!, p[1]!, p[2]!, p[3] ?? 1];
  };
  const over = (top: RGBA, bottom: RGBA): RGBA => {
    const a = top[3] + bottom[3] * (1 - top[3]);
    if (a === 0) return [0, 0, 0, 0];
    const mix = (i: number) => (top[i]! * top[3] + bottom[i]! * bottom[3] * (1 - top[3])) / a;
    return [mix(0), mix(1), mix(2), a];
  };
  const luminance = ([r, g, b]: RGBA) => {
    const f = (v: number) => {
      const c = v / 255;
      return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  const ratio = (a: RGBA, b: RGBA) => {
    const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
    return (hi + 0.05) / (lo + 0.05);
  };
  const backgroundOf = (el: Element): RGBA => {
    const layers: RGBA[] = [];
    for (let e: Element | null = el; e; e = e.parentElement) {
      const bg = parse(getComputedStyle(e).backgroundColor);
      if (bg && bg[3] > 0) layers.push(bg);
      if (bg && bg[3] === 1) break;
    }
    // The canvas behind everything: the page background, else white.
    let out: RGBA = parse(getComputedStyle(document.body).backgroundColor) ?? [255, 255, 255, 1];
    if (out[3] < 1) out = over(out, [255, 255, 255, 1]);
    for (const layer of layers.reverse()) out = over(layer, out);
    return out;
  };
  const failures: ContrastFailure[] = [];
  for (const el of document.body.querySelectorAll('*')) {
    const ownText = [...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.textContent!.trim() !== '');
    if (!ownText || !(el instanceof HTMLElement)) continue;
    if (!el.checkVisibility({ opacityProperty: true, visibilityProperty: true }) || el.closest('.sr-only, [hidden], noscript')) continue;
    const rect = el.getBoundingClientRect();
    if (rect.width === 0 || rect.height === 0) continue;
    const style = getComputedStyle(el);
    const fg = parse(style.color);
    if (!fg) continue;
    const bg = backgroundOf(el);
    const size = parseFloat(style.fontSize);
    const bold = Number(style.fontWeight) >= 700;
    const required = size >= 24 || (bold && size >= 18.66) ? 3 : 4.5;
    const r = ratio(over(fg, bg), bg);
    if (r < required) {
      failures.push({
        element: `${el.tagName.toLowerCase()}${el.className && typeof el.className === 'string' ? '.' + el.className.trim().split(/\s+/).join('.') : ''}`,
        text: el.textContent!.trim().slice(0, 40),
        ratio: Math.round(r * 100) / 100,
        required,
        color: style.color,
        background: `rgb(${bg.slice(0, 3).map(Math.round).join(', ')})`,
      });
    }
  }
  return failures;
}
