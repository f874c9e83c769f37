// A small-multiples line chart as plain SVG (no plotting library): one panel per
// measure against the page count, each with its own y axis from zero, so growth
// reads at a glance and a measure that grows faster than the pages stands out.
// The dashed line in each panel is linear growth from the smallest size.
export interface ChartSeries {
  title: string;
  unit: string;
  points: { x: number; y: number }[];
}

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;');
const round = (v: number) => (v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2));

export function smallMultiplesSvg(series: ChartSeries[], xLabel: string): string {
  const panelWidth = 300;
  const panelHeight = 200;
  const columns = 2;
  const margin = { left: 52, right: 16, top: 30, bottom: 36 };
  const rows = Math.ceil(series.length / columns);
  const width = panelWidth * columns;
  const height = panelHeight * rows;
  const parts: string[] = [`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" font-family="system-ui, sans-serif" font-size="11" role="img" aria-label="${escape(series.map((s) => s.title).join(', '))} by ${escape(xLabel)}">`, `<rect width="${width}" height="${height}" fill="#fff"/>`];
  series.forEach((s, index) => {
    const ox = (index % columns) * panelWidth;
    const oy = Math.floor(index / columns) * panelHeight;
    const plotWidth = panelWidth - margin.left - margin.right;
    const plotHeight = panelHeight - margin.top - margin.bottom;
    const maxX = Math.max(...s.points.map((p) => p.x));
    const first = s.points[0];
    const linearAtMax = first ? (first.y * maxX) / first.x : 0;
    const maxY = Math.max(...s.points.map((p) => p.y), linearAtMax) * 1.1 || 1;
    const px = (x: number) => ox + margin.left + (x / maxX) * plotWidth;
    const py = (y: number) => oy + margin.top + plotHeight - (y / maxY) * plotHeight;
    parts.push(`<text x="${ox + margin.left}" y="${oy + 18}" font-size="13" font-weight="600">${escape(s.title)} (${escape(s.unit)})</text>`);
    parts.push(`<line x1="${px(0)}" y1="${py(0)}" x2="${px(maxX)}" y2="${py(0)}" stroke="#999"/><line x1="${px(0)}" y1="${py(0)}" x2="${px(0)}" y2="${py(maxY)}" stroke="#999"/>`);
    for (const fraction of [0.5, 1]) parts.push(`<text x="${px(0) - 6}" y="${py(maxY * fraction) + 4}" text-anchor="end" fill="#555">${round(maxY * fraction)}</text>`);
    for (const p of s.points) parts.push(`<text x="${px(p.x)}" y="${py(0) + 14}" text-anchor="middle" fill="#555">${p.x >= 1000 ? `${p.x / 1000}k` : p.x}</text>`);
    if (first) parts.push(`<line x1="${px(first.x)}" y1="${py(first.y)}" x2="${px(maxX)}" y2="${py(linearAtMax)}" stroke="#bbb" stroke-dasharray="4 3"/>`);
    parts.push(`<polyline fill="none" stroke="#2563eb" stroke-width="2" points="${s.points.map((p) => `${px(p.x).toFixed(1)},${py(p.y).toFixed(1)}`).join(' ')}"/>`);
    for (const p of s.points) parts.push(`<circle cx="${px(p.x).toFixed(1)}" cy="${py(p.y).toFixed(1)}" r="3" fill="#2563eb"><title>${p.x} ${escape(xLabel)}: ${round(p.y)} ${escape(s.unit)}</title></circle><text x="${px(p.x).toFixed(1)}" y="${(py(p.y) - 7).toFixed(1)}" text-anchor="middle">${round(p.y)}</text>`);
    parts.push(`<text x="${ox + margin.left + plotWidth / 2}" y="${oy + panelHeight - 6}" text-anchor="middle" fill="#555">${escape(xLabel)}</text>`);
  });
  parts.push('</svg>');
  return parts.join('\n') + '\n';
}
