/**
 * Text utilities shared by the search index (build + query side must agree) and the extractive answerer.
 * Pure functions, no I/O.
 */

const ASCII_WORD = /^[a-z0-9_]+$/;
const ALPHA = /^[a-z]+$/;
const NON_ASCII = /[^\x00-\x7f]/;
const ASCII_SPLIT = /[^a-z0-9_]+/;
const UNICODE_SPLIT = /[^\p{L}\p{N}_]+/u;
const MARKS = /\p{M}/gu;

/**
 * A light, deterministic English stemmer: plural -s/-es/-ies, -ing, -ed, trailing -e.
 * Applied identically to indexed words and query terms; prefix matching covers the rest
 * (`install` also finds `installation`). Every form of a word must reach the same stem, or a reader's plural misses
 * the page that uses the singular: singulars that end in -s (`alias`, `canvas`) keep it, -ie nouns keep their -ie
 * (`cookies`), a four-letter -is is a plural (`apis`, `uris`: acronyms; `this` is a stopword), and -xes loses its -es
 * (`fixes` is `fix`, as `indexes` is `index`). The -ate family goes to its root (`isolation`, `isolated`, `isolate` →
 * `isol`; `configuration` → `configur`, as `configure`), so the noun a reader types meets the verb or the option name
 * a page uses; a root under four letters keeps the usual stem (`update` → `updat`, `creation` stays).
 */
export function stem(w: string): string {
  if (w.length <= 3 || !ALPHA.test(w)) return w;
  if (SINGULAR_S.has(w)) return w;
  let s = w;
  if (s.length > 4 && s.endsWith('ies')) s = IE_NOUNS.has(s.slice(0, -1)) ? s.slice(0, -1) : s.slice(0, -3) + 'y';
  else if (s.endsWith('xes')) s = s.slice(0, -2);
  else if (s.endsWith('s') && !s.endsWith('ss') && !s.endsWith('us') && (!s.endsWith('is') || s.length === 4)) s = s.slice(0, -1);
  const ate = ATE_FAMILY.exec(s);
  if (ate) return ate[1]!;
  if (s.length > 5 && s.endsWith('ing')) s = undouble(s.slice(0, -3));
  else if (s.length > 4 && s.endsWith('ed') && !s.endsWith('eed')) s = undouble(s.slice(0, -2));
  if (s.length > 4 && s.endsWith('e')) s = s.slice(0, -1);
  return s;
}

/** The -ate family (`isolate`, `isolated`, `isolating`, `isolation`, `isolator`) on a root of 4+ letters: the root. */
const ATE_FAMILY = /^([a-z]{4,})(?:ation|ator|ate|ated|ating)$/;

/** Nouns in -ie, whose plural is not one of a -y noun (`cookies` is `cookie`, as `libraries` is `library`). */
const IE_NOUNS = new Set(['cookie', 'movie', 'zombie', 'rookie', 'selfie', 'hoodie', 'calorie', 'brownie', 'genie', 'newbie', 'freebie', 'goalie', 'pixie', 'smoothie']);

/** Singular words whose final -s is not a plural's (their plurals, `aliases`, reach them through -es and -e). */
const SINGULAR_S = new Set(['alias', 'canvas', 'atlas', 'bias', 'chaos', 'cosmos']);

function undouble(s: string): string {
  const n = s.length;
  if (n >= 4 && s[n - 1] === s[n - 2] && !'lsz'.includes(s[n - 1]!) && !'aeiou'.includes(s[n - 1]!)) return s.slice(0, -1);
  return s;
}

/**
 * Index terms of one whitespace-delimited word: the joined form first (`Node.js` → `nodejs`), then its parts
 * when it has several (`node`, `js`), and a call's name without its arguments (`Bun.secrets.get(options)` →
 * `bunsecretsget`); with splitCase (page titles) also an identifier's camelCase words: `setupFiles` →
 * `setupfil`, `setup`, `file`, so a reader's "setup files" finds the option's page (in page bodies they measured worse:
 * identifiers in code spread `be`, `use`, `type` over every reference page). Lower-cased, diacritics folded, `_` kept as
 * a word character, stemmed.
 */
export function wordTerms(raw: string, splitCase = false): string[] {
  const camel = splitCase && CASE_CHANGE.test(raw);
  let lower = raw.toLowerCase();
  if (!camel && ASCII_WORD.test(lower)) return [stem(lower)];
  let parts: string[];
  if (NON_ASCII.test(lower)) {
    lower = lower.normalize('NFKD').replace(MARKS, '');
    parts = (camel ? splitCamel(raw.normalize('NFKD').replace(MARKS, '')).toLowerCase() : lower).split(UNICODE_SPLIT);
  } else {
    parts = (camel ? splitCamel(raw).toLowerCase() : lower).split(ASCII_SPLIT);
  }
  parts = parts.filter((p) => p.length > 0);
  if (parts.length === 0) return [];
  if (parts.length === 1) return [stem(parts[0]!)];
  // a Set: a word of thousands of parts (a fuzzer's line) must not cost the square of them
  const out = new Set([stem(parts.join(''))]);
  for (const p of parts) out.add(stem(p));
  // split at its case changes, an identifier's parts between its dots stay words too: `install.frozenLockfile` holds
  // `frozenlockfil` (as the reader types the option) besides `frozen` and `lockfil`
  const split = NON_ASCII.test(lower) ? UNICODE_SPLIT : ASCII_SPLIT;
  if (camel) {
    for (const p of lower.split(split)) if (p) out.add(stem(p));
  }
  // a call's name without its arguments, as a reader types the API: `Bun.secrets.get(options)` also `bunsecretsget`
  const call = callTerm(raw);
  if (call) out.add(call);
  return [...out];
}

/** The term of a call's name without its arguments (`Bun.secrets.get(options)` → `bunsecretsget`), '' for a word that is no call. */
function callTerm(raw: string): string {
  const call = raw.indexOf('(', 1);
  return call > 0 ? primaryTerm(raw.slice(0, call)) : '';
}

/**
 * The one term a section counts a word by (section-builder.ts, page-text.ts): a call's name without its arguments,
 * else the word's primary term. A reader types the API's name, not its arguments: the heading
 * `Bun.secrets.get(options)` is the section `Bun.secrets.get` and `Bun secrets get` ask for.
 */
export function sectionTerm(raw: string): string {
  return callTerm(raw) || primaryTerm(raw);
}

/** A lower-case letter or digit followed by an upper-case one, or an acronym followed by a word (`HTMLElement`). */
const CASE_CHANGE = /[a-z0-9][A-Z]|[A-Z][A-Z][a-z]{2}/;

/** camelCase and PascalCase words with a space at each case change: `setupFiles` → `setup Files`, `HTMLElement` → `HTML Element`. */
function splitCamel(word: string): string {
  return word.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/([A-Z])([A-Z][a-z]{2})/g, '$1 $2');
}

/** The primary (joined) term of a word, or '' when the word has no letters/digits. */
export function primaryTerm(raw: string): string {
  const t = wordTerms(raw);
  return t.length > 0 ? t[0]! : '';
}

const STOPWORD_LIST =
  'a an and are as at be been by can could did do does doing for from had has have how i if in into is it its me my of on ' +
  'or our should so than that the their them then there these they this those to us was we were what when where which who ' +
  'whom will with would you your about please';

/** Common English function words (stemmed like index terms): dropped from queries that have other terms. */
export const STOPWORDS: ReadonlySet<string> = new Set(STOPWORD_LIST.split(' ').map((w) => primaryTerm(w)));

/**
 * Words of how people phrase a question rather than of what they ask about ("is there a way to …", "how can I keep
 * going …", "why …"): kept in queries (a title may hold them: "Why Vitest"), but they weigh little in ranking (search
 * FILLER_WEIGHT) and the answerer does not look for them.
 */
export const QUESTION_FILLER: ReadonlySet<string> = new Set(
  ('use using want way ways get need make done possible there instead some any only just own like one few several many much ' +
    'between difference also really able thing things going keep same different why tell explain describe show give')
    .split(' ')
    .map((w) => primaryTerm(w)),
);

/**
 * Query → canonical term list: each whitespace-separated query word gives its joined term (a call its name without
 * the arguments, as sections count it: `Bun.secrets.get(options)` is `bunsecretsget`, sectionTerm); stopwords are
 * dropped unless nothing else is left ("how do I deploy" → deploy); deduplicated, sorted (so permutations share a
 * cache entry and compute identically), capped.
 */
export function queryTerms(query: string, max = 12): string[] {
  const set = new Set<string>();
  for (const w of query.split(/\s+/)) {
    if (!w) continue;
    const t = sectionTerm(w);
    if (t) set.add(t);
  }
  const all = [...set];
  const content = all.filter((t) => !STOPWORDS.has(t));
  return (content.length ? content : all).sort().slice(0, max);
}

/**
 * The stopword queryTerms drops from a query of two words: an API typed as words can be one (`describe for` is
 * `describe.for`, `test if` is `test.if`, `hot on` is `hot.on`), so it may still join the other word into the index
 * term of such a name (search/term-dictionary.ts joinedTerms), never match on its own. Longer queries with a
 * stopword are phrases ("Add a dependency", "Scopes and registries"), whose stopwords join nothing.
 */
export function queryJoinWords(query: string): string[] {
  const words = query.split(/\s+/).filter((w) => w.length > 0);
  if (words.length !== 2) return [];
  const stop = new Set<string>();
  let kept = false;
  for (const w of words) {
    const t = primaryTerm(w);
    if (!t) continue;
    if (STOPWORDS.has(t)) stop.add(t);
    else kept = true;
  }
  return kept ? [...stop].sort() : [];
}

/** All terms of a text (for term-overlap scoring), in order, including parts of compound words (and of camelCase ones: splitCase). */
export function textTerms(text: string, splitCase = false): string[] {
  const out: string[] = [];
  for (const w of text.split(/\s+/)) {
    if (!w) continue;
    for (const t of wordTerms(w, splitCase)) out.push(t);
  }
  return out;
}

const NAMED_ENTITIES: Record<string, string> = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', hellip: '…', mdash: '—', ndash: '–',
  lsquo: '‘', rsquo: '’', ldquo: '“', rdquo: '”', copy: '©', reg: '®', trade: '™',
};

export function decodeEntities(s: string): string {
  if (!s.includes('&')) return s;
  return s.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (m, body: string) => {
    if (body[0] === '#') {
      const cp = body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
      return Number.isFinite(cp) && cp > 0 && cp <= 0x10ffff ? String.fromCodePoint(cp) : m;
    }
    return NAMED_ENTITIES[body.toLowerCase()] ?? m;
  });
}

/** HTML element names: only these are treated as markup (so literal text such as `deploy <target>` survives). */
const HTML_TAGS = new Set(
  ('a abbr address area article aside audio b base bdi bdo blockquote body br button canvas caption cite code col colgroup data ' +
    'datalist dd del details dfn dialog div dl dt em embed fieldset figcaption figure footer form h1 h2 h3 h4 h5 h6 head header ' +
    'hgroup hr html i iframe img input ins kbd label legend li link main map mark menu meta meter nav noscript object ol optgroup ' +
    'option output p param picture pre progress q rp rt ruby s samp script search section select slot small source span strong ' +
    'style sub summary sup svg table tbody td template textarea tfoot th thead time title tr track u ul var video wbr math path').split(' '),
);
// A comment ends at its `-->`, or is left as text at the next `<!--`: so a text of thousands of unclosed ones is read
// once, not once from each.
const TAG = /<!--(?:(?!<!--|-->)[\s\S])*-->|<\/?([a-zA-Z][a-zA-Z0-9-]*)(?:\s[^<>]*)?\/?>/g;

/** Anything that toPlainText would change besides trimming: entities, markup, runs of/odd whitespace. */
const CLEAN_NEEDED = /[&<\n\r\t\f\v\u00a0\u2028\u2029\ufeff]|\s\s/;

/** Plain text: decode entities, drop HTML markup (incl. Pagefind's <mark>) and comments, collapse whitespace. */
export function toPlainText(s: string): string {
  if (!CLEAN_NEEDED.test(s)) return s.trim();
  let out = decodeEntities(s);
  if (out.includes('<')) out = out.replace(TAG, (m, name: string | undefined) => (name === undefined || HTML_TAGS.has(name.toLowerCase()) ? ' ' : m));
  return out.replace(/\s+/g, ' ').trim();
}

/** Split plain text into sentences (simple, deterministic). */
export function splitSentences(text: string): string[] {
  const out: string[] = [];
  for (const block of text.split(/\n\s*\n|\r\n\s*\r\n/)) {
    const flat = block.replace(/\s+/g, ' ').trim();
    if (!flat) continue;
    // End of sentence: . ! ? followed by space and an upper-case letter, digit, quote or bracket.
    const parts = flat.split(/(?<=[.!?])\s+(?=[\p{Lu}\p{N}"'“(\[])/u);
    for (const p of parts) {
      const t = p.trim();
      if (t) out.push(t);
    }
  }
  return out;
}
