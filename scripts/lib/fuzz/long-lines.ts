/**
 * Long lines: the build's converters and the gateway's text functions on one very long line of the characters their
 * patterns look for (`{{`, `](`, `<a `, `{#`, a run of spaces inside a heading …), each at two lengths. A pattern that
 * backtracks over the rest of the line from every position it can start at takes four times as long at twice the
 * length, and minutes on a line of a few hundred kilobytes: that growth, not the time itself, is what this reports.
 * Random requests (run.ts) cannot find it: it needs the same few characters thousands of times in a row.
 * Run by `npm run fuzz` beside the requests; findings make it exit 1 as theirs do.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sourceText } from '../../../gateway/engine/answer.ts';
import { atxHeading, markdownSections } from '../../../gateway/engine/markdown-sections.ts';
import { inlineText } from '../../../gateway/engine/inline-markdown.ts';
import { rankSections, sectionPassage } from '../../../gateway/engine/passages.ts';
import { decodeEntities, queryTerms, splitSentences, textTerms, toPlainText, wordTerms } from '../../../gateway/engine/text.ts';
import { componentLinesAsMdx, customIds, isForeignMdx, mdxImports, withoutCustomIds } from '../../../src/lib/foreign-mdx.ts';
import { pageTwin, inlineText as twinInlineText } from '../../../src/lib/markdown-twin.ts';
import { SourceConverter, takeLeadingHeading, withoutBadges, type SourceMode } from '../../../src/lib/source-markdown.ts';
import { vitepressSlug, withoutAuthoredId } from '../../../src/markdown/heading-ids.ts';
import { titleHtml } from '../../../src/lib/title-html.ts';

export interface LongLineFinding {
  function: string;
  /** The line as `prefix + atom × n + suffix`. */
  prefix: string;
  atom: string;
  suffix: string;
  /** Milliseconds at n and at 2n atoms (the faster of two runs each). */
  ms: [number, number];
}

export interface LongLineReport {
  functions: number;
  lines: number;
  atoms: [number, number];
  seconds: number;
  /** The largest growth seen (time at 2n over time at n) among the lines slow enough to measure. */
  worstGrowth: { function: string; growth: number; ms: [number, number] } | undefined;
  findings: LongLineFinding[];
}

const ATOMS = ['{{', '{', '}', '[', '](', '](<', '<', '>', '<!--', '::: ', '`', '```', '{#', '#', '*', '**', '_', '\\', '|', '&', '&#x', '"', '=', '="', '<a ', '<Badge ', ' ', '\t', '- ', '1. ', '> ', '.', '/', './', '!', '![', 'a', 'a ', 'aA', 'import ', '{/*', ';', '\n', '<<< ', '<!--@include: ', 'http://', '. A', '? ', '<A', '<A />\n', '  <A x="', '<A x={', '{<b>'];
const PREFIXES = ['', '# a', '## a', '::: tip ', '- ', '> ', 'import ', 'export const a', '<div ', '[x](', '| a | ', '<<< ./x.ts', 'T', 'import A from "'];
const SUFFIXES = ['', 'x', '}\n'];
/** Lines are measured at N and 2N atoms; growth is a finding above GROWTH when the longer line took at least SLOW_MS. */
const N = 16_000;
const GROWTH = 3;
const SLOW_MS = 20;
/** Below this at N atoms, a line is fast enough not to be measured twice. */
const MEASURE_MS = 4;

function functions(contentDir: string): Record<string, (line: string) => unknown> {
  const converter = (mode: SourceMode, file: string) => {
    const c = new SourceConverter({ mode, contentDir, note: () => {}, link: (target) => target });
    return (line: string) => c.convert(line, file);
  };
  return {
    'SourceConverter (html)': converter('html', 'page.md'),
    'SourceConverter (twin)': converter('twin', 'page.md'),
    'SourceConverter (MDX page)': converter('html', 'page.mdx'),
    'SourceConverter partials': (line) => new SourceConverter({ mode: 'html', contentDir, note: () => {}, link: (target) => target }).withPartials(line, 'page.mdx'),
    componentLinesAsMdx,
    isForeignMdx: (line) => isForeignMdx(join(contentDir, 'page.mdx'), line),
    takeLeadingHeading,
    withoutBadges,
    customIds,
    withoutCustomIds,
    mdxImports,
    vitepressSlug,
    withoutAuthoredId,
    'inlineText (twin headings)': twinInlineText,
    // a heading read with the page's reference definitions (the line as a heading, then as a definition)
    'headings of a twin': (line) => pageTwin({ title: 'T', body: `## ${line}\n\n[${line.slice(0, 50)}]: ${line}`, isMdx: false }).headings,
    titleHtml,
    atxHeading,
    inlineText,
    markdownSections,
    sourceText,
    wordTerms: (line) => wordTerms(line, true),
    textTerms,
    queryTerms,
    decodeEntities,
    toPlainText,
    splitSentences,
    rankSections: (line) => rankSections('how do I configure a test', [{ url: 'https://docs.test/a', title: line.slice(0, 200), content: line }]),
    sectionPassage: (line) => markdownSections(line).map((section) => sectionPassage(section, 'configure a test')),
  };
}

function fastest(fn: (line: string) => unknown, line: string, runs: number): number {
  let best = Infinity;
  for (let k = 0; k < runs; k++) {
    const started = performance.now();
    try {
      fn(line);
    } catch {
      // a throw is the caller's to report (a build error names the file); only time is measured here
    }
    best = Math.min(best, performance.now() - started);
  }
  return best;
}

export function runLongLines(): LongLineReport {
  const contentDir = mkdtempSync(join(tmpdir(), 'fuzz-long-lines-'));
  writeFileSync(join(contentDir, 'x.ts'), '// #region a\nconst a = 1;\n// #endregion a\n');
  const started = performance.now();
  const report: LongLineReport = { functions: 0, lines: 0, atoms: [N, 2 * N], seconds: 0, worstGrowth: undefined, findings: [] };
  try {
    const all = functions(contentDir);
    report.functions = Object.keys(all).length;
    for (const [name, fn] of Object.entries(all)) {
      for (const prefix of PREFIXES) {
        for (const atom of ATOMS) {
          for (const suffix of SUFFIXES) {
            report.lines++;
            const short = `${prefix}${atom.repeat(N)}${suffix}`;
            if (fastest(fn, short, 1) < MEASURE_MS) continue;
            const ms: [number, number] = [fastest(fn, short, 2), fastest(fn, `${prefix}${atom.repeat(2 * N)}${suffix}`, 2)];
            const growth = ms[1] / Math.max(ms[0], 0.001);
            const measurable = ms[0] >= MEASURE_MS / 2; // a first run slowed by compiling, fast the second time, says nothing
            if (measurable && (!report.worstGrowth || growth > report.worstGrowth.growth)) report.worstGrowth = { function: name, growth, ms };
            if (growth > GROWTH && ms[1] >= SLOW_MS) {
              // measured again, longer: a collection or another process can slow one run; a rescanning pattern stays slow
              const again: [number, number] = [fastest(fn, short, 4), fastest(fn, `${prefix}${atom.repeat(2 * N)}${suffix}`, 4)];
              if (again[1] / Math.max(again[0], 0.001) > GROWTH) report.findings.push({ function: name, prefix, atom, suffix, ms: again });
            }
          }
        }
      }
    }
  } finally {
    rmSync(contentDir, { recursive: true, force: true });
  }
  report.seconds = (performance.now() - started) / 1000;
  return report;
}

export function longLinesMarkdown(report: LongLineReport): string {
  const worst = report.worstGrowth;
  const lines = [
    '## Long lines',
    '',
    `| measure | value |`,
    `|---|---|`,
    `| functions | ${report.functions} (the build's converters, the gateway's text functions) |`,
    `| lines | ${report.lines.toLocaleString('en')}, each at ${report.atoms[0].toLocaleString('en')} and ${report.atoms[1].toLocaleString('en')} repetitions |`,
    `| duration | ${report.seconds.toFixed(1)} s |`,
    `| largest growth at twice the length | ${worst ? `${worst.growth.toFixed(1)}× (${worst.function}, ${worst.ms[0].toFixed(1)} → ${worst.ms[1].toFixed(1)} ms)` : 'none measured (every line under 4 ms)'} |`,
    `| findings (growth > ${GROWTH}×, ≥ ${SLOW_MS} ms) | ${report.findings.length} |`,
  ];
  for (const f of report.findings.slice(0, 30)) {
    lines.push(`- ${f.function}: ${JSON.stringify(f.prefix)} + ${JSON.stringify(f.atom)} × n + ${JSON.stringify(f.suffix)}: ${f.ms[0].toFixed(0)} → ${f.ms[1].toFixed(0)} ms`);
  }
  return lines.join('\n') + '\n';
}
