/**
 * The query: canonical terms (text.ts queryTerms) → matching pages → scores → ranking, over every segment.
 *
 * Matching: a query term matches its expansions (term-dictionary.ts: exact, prefix, typo neighbours) in page texts and
 * titles; match 'all' keeps the pages holding every term, 'any' (the search API, /ask, the assistant) those holding at
 * least one. Scoring is BM25F-like: BM25 (k1 1.2, b 0.75) over heading-weighted body frequencies (h1 3 … h4–h6 1.5,
 * segment-builder.ts) plus the title as a field (TITLE_WEIGHT), the expansions of one query term folded into one BM25
 * term (similarity-weighted frequencies add up; df is their union); question filler ("use", "way") weighs
 * FILLER_WEIGHT; a question's words in a page's description add DESCRIPTION_WEIGHT. Coverage: the score is
 * multiplied by the share of the query's meaningful (non-filler) words the page holds, and a query of one or two
 * meaningful words ranks the pages holding all of them first, and above those the pages whose section headings
 * (h2–h6) with the title hold them all, a heading at least one of them as typed (not a prefix or a typo neighbour):
 * `vi.spyOn` finds the reference section before the guides that use it; among those, first the pages whose headings
 * hold the words joined (`test each`: the heading `test.each`). Pages whose title holds every term some page's
 * text or title holds (a word no page has, or only a description, is left out) rank above all others (shorter titles,
 * and exact rather than prefix title matches, first); ties by url (top-k.ts).
 *
 * Why per-worker scratch arrays the size of the index, stamped per query: a query touches a few thousand pages of
 * tens of thousands, and allocating or clearing per-page arrays per query would cost more than the scoring.
 */
import { type RankingKeys, TOP_K_MAX, selectTop, sortAll } from './top-k.ts';
import type { Documents } from './documents.ts';
import { CONTENT_TYPES, type ContentType } from './segment.ts';
import type { Expansion, TermDictionary } from './term-dictionary.ts';
import { JOINED_MAX_TERMS } from './match-set.ts';
import { QUESTION_FILLER } from '../text.ts';

/** Ranked result of a query over the whole index. */
export interface Ranking {
  /** Matching pages (exact even when `docs` is only the top-k prefix of the ranking). */
  total: number;
  /** Global page ids, best first. */
  docs: Int32Array;
  /** Normalized 0..1, non-increasing. */
  scores: Float64Array;
  /** 1 when the page title holds every query term some page's text or title holds. */
  titleMatch: Uint8Array;
  /** Per query term: the pages whose body holds it, a prefix expansion or a related word (a typo neighbour does not count; 0 for a word the index does not hold). */
  termPages: Int32Array;
}

export type MatchMode = 'all' | 'any';

const K1 = 1.2;
/**
 * The bit of a page's title or heading mask for a joined name of the query (markJoinedTitles, markJoinedHeadings): no
 * term's (at most 12 terms).
 */
const JOINED_BIT = 0x8000;
const B = 0.75;
/** A title word counts as this many body occurrences (BM25F field weight), against titles of TITLE_LENGTH words. */
const TITLE_WEIGHT = 3;
const TITLE_LENGTH = 3;
/** Share of a query-filler word's (text.ts QUESTION_FILLER) weight: "use", "way", "make" say little of what is asked. */
const FILLER_WEIGHT = 0.2;
/**
 * Queries of at most this many meaningful words (what is typed into a search box) rank the pages holding all of them
 * above every page holding fewer; longer queries (questions) weigh coverage as a factor, since a question's page
 * rarely holds every one of its words (a strict tier for them measured worse, content/docs/api/search-quality-history.md).
 */
const ALL_WORDS_FIRST_MAX = 2;
/**
 * For a question (more meaningful words than ALL_WORDS_FIRST_MAX), the words of a page's description (its frontmatter
 * one-liner, "Run a command from a local or remote npm package") weigh this many idf units each on top of their body
 * occurrences, when the description holds at least DESCRIPTION_MIN_TERMS of them: a reference page named by its
 * command (`npx`) says in its description what it does, in the reader's words, and is long enough that BM25 drowns
 * them; one word in common is as often a lint rule's "Disallow console" as an answer. Not for short queries, whose
 * title and heading tiers decide. Measured on four corpora: content/docs/api/search-quality-corpora.md.
 */
const DESCRIPTION_WEIGHT = 2;
const DESCRIPTION_MIN_TERMS = 2;

export class QueryScorer {
  private readonly documents: Documents;
  private readonly dictionary: TermDictionary;
  /**
   * Per page: BM25 sum; the query terms matched anywhere and in the title as bit masks (bit i: term i; a query holds
   * at most 12 terms, text.ts queryTerms), and the count of query terms the title holds.
   */
  private readonly bm25: Float64Array;
  private readonly matched: Uint16Array;
  private readonly titleMatched: Uint8Array;
  private readonly titleMask: Uint16Array;
  /** Per page: the counted query terms its section headings hold (bit mask), valid where headingStamp is the query's. */
  private readonly headingMask: Uint16Array;
  private readonly headingStamp: Int32Array;
  /** The pages markJoinedHeadings found among them with a joined term in their headings. */
  private readonly joinedHeadedPages: Int32Array;
  /** The pages markHeadings found with every counted term in their headings. */
  private readonly headedPages: Int32Array;
  /** Per page: the description's share of a question's score (DESCRIPTION_WEIGHT), valid where descriptionStamp is the query's. */
  private readonly descriptionScore: Float64Array;
  private readonly descriptionStamp: Int32Array;
  private readonly descriptionTerms: Uint8Array;
  /** Per page: the similarity of the title expansion that first matched each query term, summed. */
  private readonly titleSimilarity: Float64Array;
  /** Per page: the query that last touched it (its scratch values are stale otherwise), and the touched pages. */
  private readonly queryStamp: Int32Array;
  private readonly touched: Int32Array;
  private readonly candidates: Int32Array;
  private readonly finalScores: Float64Array;
  /** Per page, per query term: summed expansion frequencies, the term that last set it, and the pages it holds. */
  private readonly termFrequency: Float64Array;
  private readonly termStamp: Int32Array;
  private readonly termPages: Int32Array;
  /** Per page: BM25's length normalization K1 · (1 − B + B · length / average length), the same for every query. */
  private readonly lengthNorm: Float64Array;
  private queryNumber = 0;
  private termNumber = 0;

  constructor(documents: Documents, dictionary: TermDictionary) {
    this.documents = documents;
    this.dictionary = dictionary;
    const n = documents.count;
    this.bm25 = new Float64Array(n);
    this.matched = new Uint16Array(n);
    this.titleMatched = new Uint8Array(n);
    this.titleMask = new Uint16Array(n);
    this.headingMask = new Uint16Array(n);
    this.headingStamp = new Int32Array(n);
    this.headedPages = new Int32Array(n);
    this.joinedHeadedPages = new Int32Array(n);
    this.titleSimilarity = new Float64Array(n);
    this.descriptionScore = new Float64Array(n);
    this.descriptionStamp = new Int32Array(n);
    this.descriptionTerms = new Uint8Array(n);
    this.queryStamp = new Int32Array(n);
    this.touched = new Int32Array(n);
    this.candidates = new Int32Array(n);
    this.finalScores = new Float64Array(n);
    this.termFrequency = new Float64Array(n);
    this.termStamp = new Int32Array(n);
    this.termPages = new Int32Array(n);
    this.lengthNorm = new Float64Array(n);
    for (let d = 0; d < n; d++) this.lengthNorm[d] = K1 * (1 - B + (B * documents.lengths[d]!) / documents.averageLength);
  }

  /**
   * The heading tier's marks: for each page of this query (stamp) whose section headings, with its title, hold every
   * counted term, a heading at least one of them, as typed (exact expansions only: a prefix or a typo neighbour is not
   * the heading the query names; "bunfig preload" names the `preload` section of the page titled `bunfig.toml`), its mask
   * (headingMask, valid where headingStamp is the query's). Returns how many pages hold them all, listed first in
   * headedPages. Run only for short queries, after their pages are scored: a question pays nothing for it.
   */
  private markHeadings(terms: readonly string[], counted: number, stamp: number): number {
    const { headingMask, headingStamp, queryStamp, matched } = this;
    let full = 0;
    for (let ti = 0; ti < terms.length; ti++) {
      const bit = 1 << ti;
      if ((counted & bit) === 0) continue;
      for (const v of this.dictionary.expansions(terms[ti]!)) {
        if (v.similarity !== 1) continue;
        this.eachFieldPage(v.ids, 'heading', (d) => {
          if (queryStamp[d] !== stamp || (matched[d]! & bit) === 0) return;
          if (headingStamp[d] !== stamp) {
            headingStamp[d] = stamp;
            // the title's words count with the headings; this heading's own word is set below, so a page whose
            // title already holds every counted word is listed by a heading naming one of them
            headingMask[d] = this.titleMask[d]! & counted & ~bit;
          }
          if ((headingMask[d]! & bit) === 0) {
            headingMask[d]! |= bit;
            if (headingMask[d] === counted) this.headedPages[full++] = d;
          }
        });
      }
    }
    return full;
  }

  /** Calls `visit` with each page (global id) whose title or section headings hold the term of `ids` (its id per segment or -1). */
  private eachFieldPage(ids: Int32Array, field: 'title' | 'heading', visit: (d: number) => void): void {
    const { documents } = this;
    for (let k = 0; k < documents.segments.length; k++) {
      const id = ids[k]!;
      if (id < 0) continue;
      const s = documents.segments[k]!;
      const start = field === 'title' ? s.titlePostingsStart : s.headingPostingsStart;
      const pages = field === 'title' ? s.titlePostingPages : s.headingPostingPages;
      const base = documents.segmentBase[k]!;
      for (let e = start[id]!, end = start[id + 1]!; e < end; e++) visit(base + pages[e]!);
    }
  }

  /**
   * Of the pages markHeadings listed, those whose section headings hold a term the query's words form joined
   * (TermDictionary.joinedTerms: `test each` → `testeach`, the heading `test.each`), listed in joinedHeadedPages.
   */
  private markJoinedHeadings(terms: readonly string[], joinWords: readonly string[], counted: number, stamp: number): number {
    const { headingMask, headingStamp, joinedHeadedPages } = this;
    let n = 0;
    for (const j of this.dictionary.joinedTerms(terms, joinWords)) {
      this.eachFieldPage(j.ids, 'heading', (d) => {
        // a headed page of this query, listed once: its mask is set apart by JOINED_BIT
        if (headingStamp[d] !== stamp || headingMask[d] !== counted) return;
        headingMask[d] = counted | JOINED_BIT;
        joinedHeadedPages[n++] = d;
      });
    }
    return n;
  }

  /**
   * Counts a joined name of the query's words and stopwords (TermDictionary.joinedTerms) as one more title word of the
   * pages of this query whose titles hold it, or hold the stopwords themselves (the page "Log in" for `log in`, where
   * some page says `login`); 1 when the query forms such a name (the title tier then asks for it), else 0.
   */
  private markJoinedTitles(terms: readonly string[], joinWords: readonly string[], stamp: number): number {
    const names = this.dictionary.joinedTerms(terms, joinWords);
    if (names.length === 0) return 0;
    const { queryStamp, titleMask, titleMatched, titleSimilarity } = this;
    const mark = (d: number) => {
      if (queryStamp[d] !== stamp || (titleMask[d]! & JOINED_BIT) !== 0) return;
      titleMask[d]! |= JOINED_BIT;
      titleMatched[d]!++;
      titleSimilarity[d]! += 1;
    };
    for (const j of names) this.eachFieldPage(j.ids, 'title', mark);
    // a two-word query has one stopword (text.ts queryJoinWords): a title holding it as a word holds the phrase
    if (joinWords.length === 1) {
      const own = this.dictionary.expansions(joinWords[0]!).find((v) => v.term === joinWords[0]);
      if (own) this.eachFieldPage(own.ids, 'title', mark);
    }
    return 1;
  }

  /** Pages whose body holds one of `expansions` (distinct). */
  private bodyPages(expansions: readonly Expansion[]): number {
    const { termStamp, documents } = this;
    const stamp = ++this.termNumber;
    let n = 0;
    for (const v of expansions) {
      for (let k = 0; k < documents.segments.length; k++) {
        const id = v.ids[k]!;
        if (id < 0) continue;
        const { bodyPostingsStart, bodyPostingPages } = documents.segments[k]!;
        const base = documents.segmentBase[k]!;
        for (let e = bodyPostingsStart[id]!, end = bodyPostingsStart[id + 1]!; e < end; e++) {
          const d = base + bodyPostingPages[e]!;
          if (termStamp[d] !== stamp) {
            termStamp[d] = stamp;
            n++;
          }
        }
      }
    }
    return n;
  }

  /**
   * The description's share of each page's score for a question's counted terms (descriptionScore, valid where
   * descriptionStamp is the query's): each term the description holds, as the term itself (not a prefix expansion, a
   * typo neighbour or a related word: those would cost a pass over each of their lists), adds its weight.
   */
  private markDescriptions(terms: readonly string[], counted: number, termWeight: Float64Array, stamp: number): void {
    const { documents, descriptionScore, descriptionStamp, descriptionTerms } = this;
    const segments = documents.segments;
    for (let ti = 0; ti < terms.length; ti++) {
      if ((counted & (1 << ti)) === 0) continue;
      const exact = this.dictionary.expansions(terms[ti]!)[0];
      if (exact?.similarity !== 1) continue;
      const weight = DESCRIPTION_WEIGHT * termWeight[ti]!;
      for (let k = 0; k < segments.length; k++) {
        const id = exact.ids[k]!;
        if (id < 0) continue;
        const { descriptionPostingsStart, descriptionPostingPages } = segments[k]!;
        const base = documents.segmentBase[k]!;
        for (let e = descriptionPostingsStart[id]!, end = descriptionPostingsStart[id + 1]!; e < end; e++) {
          const d = base + descriptionPostingPages[e]!;
          if (descriptionStamp[d] !== stamp) {
            descriptionStamp[d] = stamp;
            descriptionScore[d] = 0;
            descriptionTerms[d] = 0;
          }
          descriptionScore[d]! += weight;
          descriptionTerms[d]!++;
        }
      }
    }
  }

  /**
   * The ranking of canonical query terms with an optional type filter. topK: only the first topK ranks are returned
   * (`total` still counts every match) — the same pages, order and scores as the full ranking's prefix.
   */
  rank(terms: string[], type?: ContentType, match: MatchMode = 'all', topK?: number, joinWords: readonly string[] = []): Ranking {
    const nT = terms.length;
    const termPageCounts = new Int32Array(nT);
    const empty: Ranking = { total: 0, docs: new Int32Array(0), scores: new Float64Array(0), titleMatch: new Uint8Array(0), termPages: termPageCounts };
    const documents = this.documents;
    if (nT === 0 || documents.count === 0) return empty;
    const typeFilter = type === undefined ? -1 : CONTENT_TYPES.indexOf(type);
    const stamp = ++this.queryNumber;
    const { bm25, matched, titleMatched, titleMask, titleSimilarity, queryStamp, touched, termFrequency, termStamp, termPages, lengthNorm } = this;
    let nTouched = 0;
    const N = documents.count;
    const touch = (d: number) => {
      if (queryStamp[d] !== stamp) {
        queryStamp[d] = stamp;
        bm25[d] = 0;
        matched[d] = 0;
        titleMatched[d] = 0;
        titleMask[d] = 0;
        titleSimilarity[d] = 0;
        touched[nTouched++] = d;
      }
    };
    const segments = documents.segments;
    const termWeight = new Float64Array(nT);
    let allTerms = 0;
    let inPages = 0;
    let meaningful = 0;
    for (let ti = 0; ti < nT; ti++) {
      const expansions = this.dictionary.expansions(terms[ti]!);
      if (expansions.length === 0) {
        if (match === 'all') return empty; // every term must match: one without any match means no results
        continue;
      }
      const termNumber = ++this.termNumber;
      const bit = 1 << ti;
      let nt = 0;
      let inTitles = false;
      for (const v of expansions) {
        for (let k = 0; k < segments.length; k++) {
          const id = v.ids[k]!;
          if (id < 0) continue;
          const s = segments[k]!;
          const base = documents.segmentBase[k]!;
          const { bodyPostingsStart, bodyPostingPages, bodyPostingFrequencies, titlePostingsStart, titlePostingPages } = s;
          for (let e = bodyPostingsStart[id]!, end = bodyPostingsStart[id + 1]!; e < end; e++) {
            const d = base + bodyPostingPages[e]!;
            if (termStamp[d] !== termNumber) {
              termStamp[d] = termNumber;
              termFrequency[d] = 0;
              termPages[nt++] = d;
            }
            termFrequency[d]! += v.similarity * (bodyPostingFrequencies[e]! * 0.5);
          }
          if (titlePostingsStart[id + 1]! > titlePostingsStart[id]!) inTitles = true;
          for (let e = titlePostingsStart[id]!, end = titlePostingsStart[id + 1]!; e < end; e++) {
            const d = base + titlePostingPages[e]!;
            touch(d);
            // the first expansion of this term in the title counts it (and its similarity)
            if ((titleMask[d]! & bit) === 0) {
              titleMask[d]! |= bit;
              titleMatched[d]!++;
              titleSimilarity[d]! += v.similarity;
            }
            matched[d]! |= bit;
          }
        }
      }
      // a word only descriptions hold (the vocabulary has it, no page's text or title does) matches no page: with
      // match 'all' nothing matches; otherwise it counts for coverage and descriptions, but no title can hold it
      if (nt === 0 && !inTitles) {
        if (match === 'all') return empty;
      } else inPages |= bit;
      const filler = QUESTION_FILLER.has(terms[ti]!);
      const idf = (filler ? FILLER_WEIGHT : 1) * Math.log(1 + (N - nt + 0.5) / (nt + 0.5));
      const w = idf * (K1 + 1);
      for (let j = 0; j < nt; j++) {
        const d = termPages[j]!;
        const f = termFrequency[d]!;
        const termScore = (w * f) / (f + lengthNorm[d]!);
        if (queryStamp[d] === stamp) {
          bm25[d]! += termScore;
          matched[d]! |= bit;
        } else {
          // touch(d), with this term's values
          queryStamp[d] = stamp;
          bm25[d] = termScore;
          matched[d] = bit;
          titleMatched[d] = 0;
          titleMask[d] = 0;
          titleSimilarity[d] = 0;
          touched[nTouched++] = d;
        }
      }
      termWeight[ti] = idf;
      const typos = this.dictionary.typoNeighboursOf(terms[ti]!);
      // a rare word's common neighbour (`letter` beside `better`) ranks with it, but does not make the word common
      termPageCounts[ti] = typos.length === 0 ? nt : this.bodyPages(expansions.filter((v) => !typos.includes(v)));
      allTerms |= 1 << ti;
      if (!filler) meaningful |= 1 << ti;
    }
    // the title tier asks a title for every word some page's text or title holds: a word no page has (filler the site
    // never uses, "what projects has Robin done") cannot be in any title, and would leave the tier empty
    let knownTerms = 0;
    for (let ti = 0; ti < nT; ti++) if (inPages & (1 << ti)) knownTerms++;
    // a query naming an API with a stopword in it (`describe for`: `describe.for`) asks for that name: a title holding
    // its other words (the page `describe`) is not the page it asks for, one holding the name is
    if (joinWords.length > 0 && knownTerms > 0 && nT + joinWords.length <= JOINED_MAX_TERMS) knownTerms += this.markJoinedTitles(terms, joinWords, stamp);
    const candidates = this.candidates;
    let nc = 0;
    let maxBody = 0;
    const fin = this.finalScores;
    // coverage counts the meaningful words (all of them when the query is only filler)
    const counted = meaningful || allTerms;
    let nCounted = 0;
    for (let ti = 0; ti < nT; ti++) if (counted & (1 << ti)) nCounted++;
    const question = nCounted > ALL_WORDS_FIRST_MAX;
    if (question) this.markDescriptions(terms, counted, termWeight, stamp);
    const { descriptionScore, descriptionStamp, descriptionTerms } = this;
    let allCovered = 0;
    let maxPartial = 0;
    for (let k = 0; k < nTouched; k++) {
      const d = touched[k]!;
      const mask = matched[d]!;
      if (match === 'all' ? mask !== (1 << nT) - 1 : mask === 0) continue;
      if (typeFilter >= 0 && documents.types[d] !== typeFilter) continue;
      candidates[nc++] = d;
      if (titleMatched[d] === knownTerms) continue;
      // covered: the bits of mask & counted
      let bits = mask & counted;
      bits -= (bits >>> 1) & 0x5555;
      bits = (bits & 0x3333) + ((bits >>> 2) & 0x3333);
      const covered = (((bits + (bits >>> 4)) & 0x0f0f) * 0x0101) >>> 8 & 0xff;
      let title = 0;
      const inTitle = titleMask[d]!;
      if (inTitle !== 0) for (let ti = 0; ti < nT; ti++) if (inTitle & (1 << ti)) title += termWeight[ti]!;
      // the title as a BM25F field: a matched title word weighs TITLE_WEIGHT body occurrences, saturated by title length
      if (title > 0) title *= (TITLE_WEIGHT * (K1 + 1)) / (1 + K1 * (1 - B + (B * documents.titleTerms(d)) / TITLE_LENGTH));
      const description = question && descriptionStamp[d] === stamp && descriptionTerms[d]! >= DESCRIPTION_MIN_TERMS ? descriptionScore[d]! : 0;
      const score = (bm25[d]! + title + description) * (1 + (0.5 * titleMatched[d]!) / nT) * (covered / nCounted);
      fin[d] = score;
      if ((mask & counted) === counted) allCovered++;
      else if (score > maxPartial) maxPartial = score;
    }
    // a short query: the pages holding all its words first (a tier above every partial match), and above them the
    // pages whose section headings hold them all (`vi.spyOn` is the reference section, not a guide that uses it)
    const short = !question;
    const allFirst = short && allCovered > 0;
    for (let k = 0; k < nc; k++) {
      const d = candidates[k]!;
      if (titleMatched[d] === knownTerms) continue;
      if (allFirst && (matched[d]! & counted) === counted) fin[d]! += maxPartial;
      if (fin[d]! > maxBody) maxBody = fin[d]!;
    }
    const headed = allFirst ? this.markHeadings(terms, counted, stamp) : 0;
    if (headed > 0) {
      // every page's score is below maxBody: added to the headed pages, it puts them above all others
      const all = (1 << nT) - 1;
      const raise = (pages: Int32Array, count: number) => {
        const offset = maxBody;
        for (let j = 0; j < count; j++) {
          const d = pages[j]!;
          if (titleMatched[d] === knownTerms || (match === 'all' && matched[d] !== all) || (typeFilter >= 0 && documents.types[d] !== typeFilter)) continue;
          fin[d]! += offset;
          if (fin[d]! > maxBody) maxBody = fin[d]!;
        }
      };
      raise(this.headedPages, headed);
      // above those, the headed pages whose headings name the query's words joined (`test each`: `test.each`)
      const words = nT + joinWords.length;
      const joinedHeaded = words >= 2 && words <= JOINED_MAX_TERMS ? this.markJoinedHeadings(terms, joinWords, counted, stamp) : 0;
      if (joinedHeaded > 0) raise(this.joinedHeadedPages, joinedHeaded);
    }
    // title tier: above every other page; shorter titles (the query is more of the title) and titles holding the words
    // themselves rather than longer words they begin (`fsModuleCache` before `fsModuleCachePath`) first
    let max = 0;
    for (let k = 0; k < nc; k++) {
      const d = candidates[k]!;
      if (titleMatched[d] === knownTerms) fin[d] = (bm25[d]! + maxBody) * (1 + knownTerms / Math.max(knownTerms, documents.titleTerms(d))) * (titleSimilarity[d]! / knownTerms);
      if (fin[d]! > max) max = fin[d]!;
    }
    const keys: RankingKeys = {
      scores: fin, titleMatches: titleMatched, termCount: knownTerms, urlRank: documents.urlRank, byUrlRank: documents.byUrlRank, urlRankBits: documents.urlRankBits,
    };
    const nOut = topK !== undefined && topK < nc ? Math.max(0, Math.floor(topK)) : nc;
    const docs = nOut === nc ? sortAll(keys, candidates, nc) : nOut <= TOP_K_MAX ? selectTop(keys, candidates, nc, nOut) : sortAll(keys, candidates, nc).slice(0, nOut);
    const scores = new Float64Array(nOut);
    const titleMatch = new Uint8Array(nOut);
    for (let r = 0; r < nOut; r++) {
      const d = docs[r]!;
      scores[r] = max > 0 ? Math.round((fin[d]! / max) * 1e6) / 1e6 : 1;
      titleMatch[r] = titleMatched[d] === knownTerms ? 1 : 0;
    }
    // a title match with a zero body score can tie the best body score: keep scores non-increasing anyway
    for (let r = 1; r < nOut; r++) if (scores[r]! > scores[r - 1]!) scores[r] = scores[r - 1]!;
    return { total: nc, docs, scores, titleMatch, termPages: termPageCounts };
  }
}
