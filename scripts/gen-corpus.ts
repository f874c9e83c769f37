// Deterministic benchmark corpus: N pages of realistic documentation shape laid
// out like content/ (docs/<section>/<page>.md in ~N/190 sections of uneven size, plus
// skills/, agents/, hooks/, compositions/ and a five-page portfolio/), ~3% of them MDX,
// and the query set the benchmark replays against it (queries.json, ordered by
// popularity; corpus.json holds the stats).
//
//   node scripts/gen-corpus.ts [--pages 10000] [--out bench/corpus/content] [--seed agent-docs] [--queries 2000]
//
// Same arguments → byte-identical output. Text is drawn from a Zipf-ranked
// vocabulary (function words, real documentation words, invented jargon) plus a
// pool of rare identifiers that each occur on only a few pages.
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Rng, Zipf } from './lib/bench/random.ts';
import { buildVocabulary, type Vocabulary } from './lib/bench/vocabulary.ts';

export const contentTypes = ['docs', 'skill', 'agent', 'hook', 'composition'] as const;
type ContentType = (typeof contentTypes)[number];
const typeFolder: Record<Exclude<ContentType, 'docs'>, string> = {
  skill: 'skills',
  agent: 'agents',
  hook: 'hooks',
  composition: 'compositions',
};
/** Share of pages per type. */
const typeShare: Record<ContentType, number> = { docs: 0.8, skill: 0.06, agent: 0.05, hook: 0.05, composition: 0.04 };

export interface CorpusOptions {
  pages: number;
  out: string;
  seed?: string;
  queries?: number;
  /** Share of pages written as .mdx (with a <details> block). */
  mdxShare?: number;
}

export interface BenchQuery {
  /** Popularity rank: the benchmark draws queries Zipf-like by this index. */
  rank: number;
  query: string;
  kind: 'common' | 'mid' | 'rare' | 'two-word' | 'three-word';
  tag?: ContentType;
  /** When set, the benchmark asks for this page size and then follows the cursor once. */
  limit?: number;
}

export interface QuerySet {
  version: 1;
  seed: string;
  pages: number;
  /** Zipf exponent for drawing queries by rank in the benchmark. */
  popularityExponent: number;
  queries: BenchQuery[];
}

export interface CorpusStats {
  pages: number;
  byType: Record<ContentType, number>;
  sections: number;
  mdxPages: number;
  words: number;
  bytes: number;
  vocabularyTypes: number;
  rareTypes: number;
  queries: number;
}

interface PagePlan {
  type: ContentType;
  section: string;
  slug: string;
  file: string;
  path: string;
  mdx: boolean;
}

const marker = 'corpus.json';

/** Removes a previous corpus in `out`; refuses to touch a folder that is not one. */
function prepareOut(out: string): void {
  if (existsSync(out)) {
    const entries = readdirSync(out);
    if (entries.length > 0 && !entries.includes(marker)) {
      throw new Error(`${out} is not empty and holds no ${marker}: refusing to overwrite it`);
    }
    for (const e of entries) rmSync(join(out, e), { recursive: true, force: true });
  }
  mkdirSync(out, { recursive: true });
}

function titleCase(words: string[]): string {
  const s = words.join(' ');
  return s.charAt(0).toUpperCase() + s.slice(1);
}

class Writer {
  readonly rng: Rng;
  readonly vocab: Vocabulary;
  private readonly zipf: Zipf;
  private readonly contentZipf: Zipf;
  plans: PagePlan[] = [];
  words = 0;

  constructor(rng: Rng, vocab: Vocabulary) {
    this.rng = rng;
    this.vocab = vocab;
    this.zipf = new Zipf(vocab.words.length, 1.07);
    this.contentZipf = new Zipf(vocab.words.length - vocab.contentStart, 1.0);
  }

  /** Any word, function words included (running text). */
  word(): string {
    return this.vocab.words[this.zipf.sample(this.rng)]!;
  }

  /** A content word (no function words): for titles, names, identifiers. */
  term(): string {
    return this.vocab.words[this.vocab.contentStart + this.contentZipf.sample(this.rng)]!;
  }

  terms(n: number): string[] {
    const out: string[] = [];
    while (out.length < n) {
      const t = this.term();
      if (!out.includes(t)) out.push(t);
    }
    return out;
  }

  link(): string {
    const target = this.rng.pick(this.plans);
    return `[${this.terms(this.rng.int(1, 3)).join(' ')}](${target.path})`;
  }

  /** Plain words only: for descriptions. */
  plainSentence(): string {
    const n = this.rng.int(8, 16);
    const parts = Array.from({ length: n }, (_, i) => (i % 3 === 1 ? this.term() : this.word()));
    const s = parts.join(' ');
    return `${s.charAt(0).toUpperCase()}${s.slice(1)}.`;
  }

  sentence(rare: string[]): string {
    const n = this.rng.int(6, 16);
    const parts: string[] = [];
    for (let i = 0; i < n; i++) {
      const roll = this.rng.next();
      if (roll < 0.015 && rare.length > 0) parts.push(this.rng.pick(rare));
      else if (roll < 0.035) parts.push(`\`${this.term()}\``);
      else if (roll < 0.045) parts.push(`**${this.term()}**`);
      else if (roll < 0.052) parts.push(this.link());
      else parts.push(this.word());
    }
    this.words += n;
    const s = parts.join(' ');
    return s.charAt(0).toUpperCase() + s.slice(1) + (this.rng.chance(0.1) ? '?' : '.');
  }

  paragraph(rare: string[]): string {
    const n = this.rng.int(2, 4);
    const out: string[] = [];
    for (let i = 0; i < n; i++) out.push(this.sentence(rare));
    return out.join(' ');
  }

  codeBlock(): string {
    const lang = this.rng.pick(['ts', 'bash', 'json', 'yaml', 'js']);
    const lines: string[] = [];
    const n = this.rng.int(3, 12);
    const ident = () => {
      const [a, b] = this.terms(2);
      return a! + b!.charAt(0).toUpperCase() + b!.slice(1);
    };
    for (let i = 0; i < n; i++) {
      switch (lang) {
        case 'bash':
          lines.push(`${this.rng.pick(['npm run', 'npx', 'curl -s', 'docker run', 'export'])} ${this.term()}${this.rng.chance(0.5) ? ` --${this.term()} ${this.rng.int(1, 500)}` : ''}`);
          break;
        case 'json':
          lines.push(`  "${ident()}": ${this.rng.chance(0.5) ? this.rng.int(0, 9999) : `"${this.term()}"`}${i < n - 1 ? ',' : ''}`);
          break;
        case 'yaml':
          lines.push(`${'  '.repeat(this.rng.int(0, 2))}${this.term()}: ${this.rng.chance(0.5) ? this.rng.int(0, 9999) : this.term()}`);
          break;
        default:
          lines.push(
            this.rng.pick([
              `const ${ident()} = await ${this.term()}.${ident()}({ ${this.term()}: ${this.rng.int(1, 100)} });`,
              `export function ${ident()}(${this.term()}: string) {`,
              `  return ${this.term()}.${ident()}(${this.term()});`,
              `}`,
              `import { ${ident()} } from '${this.term()}';`,
              `// ${this.terms(this.rng.int(3, 7)).join(' ')}`,
            ]),
          );
      }
    }
    if (lang === 'json') return ['```json', '{', ...lines, '}', '```'].join('\n');
    return [`\`\`\`${lang}`, ...lines, '```'].join('\n');
  }

  list(rare: string[]): string {
    const ordered = this.rng.chance(0.35);
    const n = this.rng.int(3, 6);
    const items: string[] = [];
    for (let i = 0; i < n; i++) {
      const text = this.rng.chance(0.4) ? `\`${this.term()}\`: ${this.sentence(rare)}` : this.sentence(rare);
      items.push(`${ordered ? `${i + 1}.` : '-'} ${text}`);
    }
    return items.join('\n');
  }

  table(): string {
    const cols = this.rng.int(2, 4);
    const head = this.terms(cols).map((t) => titleCase([t]));
    const rows = [`| ${head.join(' | ')} |`, `|${' --- |'.repeat(cols)}`];
    for (let r = this.rng.int(2, 6); r > 0; r--) {
      rows.push(`| \`${this.term()}\` | ${Array.from({ length: cols - 1 }, () => this.terms(this.rng.int(1, 4)).join(' ')).join(' | ')} |`);
    }
    return rows.join('\n');
  }

  block(rare: string[]): string {
    const roll = this.rng.next();
    if (roll < 0.22) return this.codeBlock();
    if (roll < 0.42) return this.list(rare);
    if (roll < 0.48) return this.table();
    return this.paragraph(rare);
  }

  body(plan: PagePlan): string {
    // Each page carries a couple of rare identifiers, mentioned a few times.
    const rare = Array.from({ length: this.rng.int(1, 3) }, () => this.rng.pick(this.vocab.rare));
    const parts: string[] = [this.paragraph(rare)];
    if (this.rng.chance(0.5)) parts.push(this.paragraph(rare));
    const h2 = this.rng.int(3, 8);
    for (let i = 0; i < h2; i++) {
      parts.push(`## ${titleCase(this.terms(this.rng.int(1, 4)))}`);
      parts.push(this.paragraph(rare));
      for (let b = this.rng.int(0, 2); b > 0; b--) parts.push(this.block(rare));
      for (let s = this.rng.chance(0.55) ? this.rng.int(1, 3) : 0; s > 0; s--) {
        parts.push(`${this.rng.chance(0.85) ? '###' : '####'} ${titleCase(this.terms(this.rng.int(1, 4)))}`);
        parts.push(this.paragraph(rare));
        if (this.rng.chance(0.4)) parts.push(this.block(rare));
      }
      if (plan.mdx && i === 1) {
        parts.push(`<details>\n<summary>${titleCase(this.terms(3))}</summary>\n\n${this.paragraph(rare)}\n\n</details>`);
      }
    }
    parts.push(`See also ${this.link()} and ${this.link()}.`);
    return parts.join('\n\n');
  }
}

function quoteYaml(s: string): string {
  return JSON.stringify(s);
}

function planPages(w: Writer, pages: number, mdxShare: number): PagePlan[] {
  const { rng } = w;
  const counts = {} as Record<ContentType, number>;
  let assigned = 0;
  for (const t of contentTypes.slice(1)) {
    counts[t] = Math.max(1, Math.round(pages * typeShare[t]));
    assigned += counts[t];
  }
  counts.docs = Math.max(1, pages - assigned);

  // Many docs sections of uneven size (10–250 pages), named like real ones.
  const docsSections: string[] = [];
  const sectionCount = Math.max(3, Math.round(counts.docs / 150));
  const used = new Set<string>(['skills', 'agents', 'hooks', 'compositions', 'api']);
  while (docsSections.length < sectionCount) {
    const name = w.terms(rng.int(1, 2)).join('-');
    if (!used.has(name)) {
      used.add(name);
      docsSections.push(name);
    }
  }
  const sectionZipf = new Zipf(docsSections.length, 0.6);

  const plans: PagePlan[] = [];
  const slugs = new Set<string>();
  for (const type of contentTypes) {
    for (let i = 0; i < counts[type]; i++) {
      const section = type === 'docs' ? docsSections[sectionZipf.sample(rng)]! : typeFolder[type];
      let slug = w.terms(rng.int(1, 3)).join('-');
      while (slugs.has(`${section}/${slug}`)) slug = `${slug}-${rng.int(2, 99)}`;
      slugs.add(`${section}/${slug}`);
      const mdx = rng.chance(mdxShare);
      const dir = type === 'docs' ? `docs/${section}` : section;
      plans.push({ type, section, slug, file: `${dir}/${slug}.${mdx ? 'mdx' : 'md'}`, path: `/docs/${section}/${slug}`, mdx });
    }
  }
  return plans;
}

function buildQueries(seed: string, vocab: Vocabulary, count: number): BenchQuery[] {
  const rng = new Rng(`${seed}:queries`);
  const content = vocab.words.slice(vocab.contentStart);
  const zipf = new Zipf(content.length, 1.0);
  const common = content.slice(0, 80); // each on most pages
  const mid = content.slice(80, 2000);
  const tail = [...content.slice(2000), ...vocab.rare];
  const seen = new Set<string>();
  const out: Omit<BenchQuery, 'rank'>[] = [];
  const tags: ContentType[] = ['docs', 'docs', 'skill', 'agent', 'hook', 'composition'];
  let guard = 0;
  while (out.length < count && guard++ < count * 50) {
    const roll = rng.next();
    let kind: BenchQuery['kind'];
    let words: string[];
    if (roll < 0.15) [kind, words] = ['common', [rng.pick(common)]];
    else if (roll < 0.4) [kind, words] = ['mid', [rng.pick(mid)]];
    else if (roll < 0.6) [kind, words] = ['rare', [rng.pick(tail)]];
    else if (roll < 0.85) [kind, words] = ['two-word', [content[zipf.sample(rng)]!, content[zipf.sample(rng)]!]];
    else [kind, words] = ['three-word', [content[zipf.sample(rng)]!, content[zipf.sample(rng)]!, content[zipf.sample(rng)]!]];
    if (new Set(words).size !== words.length) continue;
    const query = words.join(' ');
    if (seen.has(query)) continue;
    seen.add(query);
    const q: Omit<BenchQuery, 'rank'> = { query, kind };
    if (rng.chance(0.2)) q.tag = rng.pick(tags);
    if (rng.chance(0.4)) q.limit = rng.pick([5, 10, 10, 20]);
    out.push(q);
  }
  // Popularity is independent of kind: shuffle, then the index is the rank.
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rng.next() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out.map((q, rank) => ({ rank, ...q }));
}

export function generateCorpus(opts: CorpusOptions): CorpusStats {
  const seed = opts.seed ?? 'agent-docs';
  const pages = opts.pages;
  if (!Number.isInteger(pages) || pages < 10) throw new Error('--pages must be an integer ≥ 10');
  const out = resolve(opts.out);
  prepareOut(out);
  const vocab = buildVocabulary(seed, 5000, Math.max(300, Math.round(pages / 4)));
  const rng = new Rng(`${seed}:pages:${pages}`);
  const w = new Writer(rng, vocab);
  w.plans = planPages(w, pages, opts.mdxShare ?? 0.03);

  let bytes = 0;
  const dirs = new Set<string>();
  const byType = Object.fromEntries(contentTypes.map((t) => [t, 0])) as Record<ContentType, number>;
  const orderIn = new Map<string, number>();
  for (const plan of w.plans) {
    byType[plan.type]++;
    const order = (orderIn.get(plan.section) ?? 0) + 1;
    orderIn.set(plan.section, order);
    const title = titleCase(w.terms(rng.int(2, 5)));
    const description = w.plainSentence();
    const front = ['---', `title: ${quoteYaml(title)}`, `description: ${quoteYaml(description)}`];
    if (rng.chance(0.7)) front.push(`order: ${order}`);
    front.push('---', '');
    const text = `${front.join('\n')}\n${w.body(plan)}\n`;
    const file = join(out, plan.file);
    const dir = file.slice(0, file.lastIndexOf('/'));
    if (!dirs.has(dir)) {
      mkdirSync(dir, { recursive: true });
      dirs.add(dir);
    }
    writeFileSync(file, text);
    bytes += Buffer.byteLength(text);
  }

  // A small assistant (portfolio) site, so the build output has the production shape.
  mkdirSync(join(out, 'portfolio'), { recursive: true });
  for (const [i, name] of ['index', 'about', 'projects', 'writing', 'contact'].entries()) {
    const body = Array.from({ length: 3 }, () => `## ${titleCase(w.terms(2))}\n\n${w.paragraph([])}`).join('\n\n');
    const text = `---\ntitle: ${quoteYaml(titleCase([name]))}\ndescription: ${quoteYaml(w.plainSentence())}\norder: ${i + 1}\n---\n\n${body}\n`;
    writeFileSync(join(out, 'portfolio', `${name}.md`), text);
  }

  const queries = buildQueries(seed, vocab, opts.queries ?? 2000);
  const querySet: QuerySet = { version: 1, seed, pages, popularityExponent: 0.9, queries };
  writeFileSync(join(out, 'queries.json'), `${JSON.stringify(querySet, null, 1)}\n`);
  const stats: CorpusStats = {
    pages,
    byType,
    sections: new Set(w.plans.map((p) => p.section)).size,
    mdxPages: w.plans.filter((p) => p.mdx).length,
    words: w.words,
    bytes,
    vocabularyTypes: vocab.words.length,
    rareTypes: vocab.rare.length,
    queries: queries.length,
  };
  writeFileSync(join(out, marker), `${JSON.stringify({ generator: 'scripts/gen-corpus.ts', seed, ...stats }, null, 2)}\n`);
  return stats;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      pages: { type: 'string', default: '10000' },
      out: { type: 'string', default: 'bench/corpus/content' },
      seed: { type: 'string', default: 'agent-docs' },
      queries: { type: 'string', default: '2000' },
    },
  });
  const started = performance.now();
  const stats = generateCorpus({ pages: Number(values.pages), out: values.out!, seed: values.seed, queries: Number(values.queries) });
  console.log(
    `${stats.pages} pages (${Object.entries(stats.byType).map(([t, n]) => `${n} ${t}`).join(', ')}) in ${stats.sections} sections, ` +
      `${(stats.bytes / 1e6).toFixed(1)} MB, ${stats.words} words, ${stats.queries} queries → ${values.out} ` +
      `(${((performance.now() - started) / 1000).toFixed(1)} s)`,
  );
}
