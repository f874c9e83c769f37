/**
 * Copies a VitePress-style documentation tree (nested folders, frontmatter titles such as `Mocking | Guide`, `:::`
 * containers, `<script setup>` blocks) into this site's content layout, `docs/<section>/<page>.md`, so the relevance
 * evaluation can build a real corpus with the build as it is.
 *
 * The address rule, deterministic and collision-checked:
 *   - the first folder is the section; the rest of the path joins with `-` into the page slug
 *     (`guide/mocking/classes.md` → `guide/mocking-classes`); a folder's `index.md` takes the folder's name
 *     (`guide/advanced/index.md` → `guide/advanced`, `config/index.md` → `config/index`);
 *   - files at the top of the tree go to the section `home` (`releases.md` → `home/releases`);
 *   - segments are lower-cased and every run of other characters than `a-z0-9` becomes one `-`;
 *   - two sources that map to one address fail the conversion, naming both.
 * The title is the page's first `#` heading (what its readers see), else the frontmatter title before ` | `, else
 * the file name. Meta files of the repository (AGENTS.md, todo.md) are not pages of the site and are skipped.
 *
 * The judged set names pages by their source path (stable whatever the address rule); `sourceMap` is how the
 * evaluation turns one into a URL while the build does not record sources itself.
 */
import { mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

const SKIPPED = new Set(['AGENTS.md', 'todo.md']);

export interface ConvertedPage {
  /** Path of the source file relative to the corpus root, `/`-separated. */
  source: string;
  /** URL path of the page in the built site. */
  path: string;
  title: string;
}

function slugSegment(s: string): string {
  return s.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '') || 'page';
}

/** Source path (relative, `/`-separated, `.md`) → its address `{ section, page }`. */
export function addressOfSource(source: string): { section: string; page: string } {
  const parts = source.replace(/\.md$/, '').split('/');
  if (parts.length === 1) return { section: 'home', page: slugSegment(parts[0]!) };
  const [section, ...rest] = parts;
  if (rest.length > 1 && rest.at(-1) === 'index') rest.pop();
  return { section: slugSegment(section!), page: rest.map(slugSegment).join('-') };
}

function listMarkdown(root: string, dir = root): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    if (name.startsWith('.') || name === 'node_modules') continue;
    const full = join(dir, name);
    if (statSync(full).isDirectory()) out.push(...listMarkdown(root, full));
    else if (name.endsWith('.md')) out.push(relative(root, full).split('\\').join('/'));
  }
  return out;
}

function splitFrontmatter(text: string): { data: Record<string, string>; body: string } {
  const m = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/.exec(text);
  if (!m) return { data: {}, body: text };
  const data: Record<string, string> = {};
  for (const line of m[1]!.split(/\r?\n/)) {
    const kv = /^([A-Za-z_][\w-]*):\s*(.*)$/.exec(line);
    if (kv) data[kv[1]!] = kv[2]!.trim().replace(/^(['"])(.*)\1$/, '$2');
  }
  return { data, body: text.slice(m[0].length) };
}

/**
 * The body in plain CommonMark: VitePress-only blocks dropped (`<script setup>`, `<style>`, code includes `<<<`),
 * containers turned into a bold lead-in paragraph, custom heading ids (`{#id}`) removed, the first `#` heading removed
 * (the site renders the title itself). Code fences are left exactly as written.
 */
function convertBody(body: string): { body: string; heading?: string } {
  const out: string[] = [];
  let fence: string | null = null;
  let skipping: RegExp | null = null;
  let heading: string | undefined;
  for (const line of body.split(/\r?\n/)) {
    const f = /^\s*(`{3,}|~{3,})/.exec(line);
    if (f && !skipping) {
      if (fence === null) fence = f[1]!;
      else if (f[1]!.startsWith(fence) && line.trim() === f[1]) fence = null;
      out.push(line);
      continue;
    }
    if (fence !== null) {
      out.push(line);
      continue;
    }
    if (skipping) {
      if (skipping.test(line)) skipping = null;
      continue;
    }
    if (/^\s*<script\b/.test(line)) {
      if (!/<\/script>/.test(line)) skipping = /<\/script>/;
      continue;
    }
    if (/^\s*<style\b/.test(line)) {
      if (!/<\/style>/.test(line)) skipping = /<\/style>/;
      continue;
    }
    if (/^\s*<<<\s/.test(line)) continue;
    const container = /^\s*:::+\s*([a-z-]+)?\s*(.*)$/.exec(line);
    if (container) {
      const [, kind, label] = container;
      if (kind && kind !== 'code-group') out.push('', `**${label || kind.charAt(0).toUpperCase() + kind.slice(1)}**`, '');
      continue;
    }
    const h = /^(#{1,6})\s+(.*?)\s*(\{#[^}]*\})?\s*$/.exec(line);
    if (h) {
      if (h[1] === '#' && heading === undefined) {
        heading = h[2]!.replace(/<(\w+)\b[^>]*>[^<]*<\/\1>|<[^>]+>/g, '').replace(/\s+/g, ' ').trim();
        continue;
      }
      out.push(`${h[1]} ${h[2]}`);
      continue;
    }
    out.push(line);
  }
  return { body: out.join('\n').replace(/\n{3,}/g, '\n\n').trim(), heading };
}

function yamlString(s: string): string {
  return JSON.stringify(s);
}

/** Writes `<outDir>/docs/<section>/<page>.md` for every page of `corpusDir` (outDir is emptied first). */
export function convertCorpus(corpusDir: string, outDir: string): ConvertedPage[] {
  rmSync(outDir, { recursive: true, force: true });
  const pages: ConvertedPage[] = [];
  const bySlug = new Map<string, string>();
  for (const source of listMarkdown(corpusDir)) {
    if (SKIPPED.has(source)) continue;
    const { section, page } = addressOfSource(source);
    const key = `${section}/${page}`;
    const clash = bySlug.get(key);
    if (clash) throw new Error(`${source} and ${clash} both map to /docs/${key}`);
    bySlug.set(key, source);
    const { data, body } = splitFrontmatter(readFileSync(join(corpusDir, source), 'utf8'));
    const converted = convertBody(body);
    const fallback = source.replace(/\.md$/, '').split('/').pop()!;
    const title = converted.heading || data.title?.split(' | ')[0]?.trim() || fallback;
    const front = [`title: ${yamlString(title)}`];
    if (data.description) front.push(`description: ${yamlString(data.description)}`);
    const file = join(outDir, 'docs', section, `${page}.md`);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, `---\n${front.join('\n')}\n---\n\n${converted.body}\n`);
    pages.push({ source, path: `/docs/${key}`, title });
  }
  return pages;
}
