/**
 * A query's match set: per segment, which term ids count as a match (the expansions of every query term), with
 * their ids in ascending order and the matched term strings. The results stage reads it to choose a hit's section
 * (section postings of those ids) and to place its excerpt (page words whose term is matched).
 *
 * Query words that the index holds joined as one term (`describe skip`: `describe.skip`, indexed `describeskip`;
 * `server proxy`: `server.proxy`; `Bun cron parse`: `Bun.cron.parse`) mark that term too, with JOINED_WEIGHT: a
 * section counts each of its matches that many times, so the section headed `describe.skip` is chosen over
 * `describe.concurrent`, which the first word's prefix matches alike. Only for queries of at most JOINED_MAX_TERMS
 * terms, where the orders to try are few.
 *
 * A heading matching a query word as typed counts EXACT_HEADING_WEIGHT times (a joined term's JOINED_WEIGHT times
 * that) when any of the query's words also matched longer words it begins or other expansions, as nearly every word
 * does: `mockResolvedValue` opens the section headed so, not the `mockResolvedValueOnce` section after it whose body
 * names the method more often. Bodies count every expansion alike.
 *
 * Why views of one reusable mark buffer per segment: a vocabulary-sized array per segment per query would be most of a
 * query's garbage. A set's marks hold until the next call; its ids, terms and weights, recorded per view, hold for good.
 */
import type { SegmentData } from './segment.ts';
import type { Expansion, TermDictionary } from './term-dictionary.ts';

/** How many times a section counts a match of a joined term (the other terms' matches count once). */
export const JOINED_WEIGHT = 2;
/** How many times a section's heading counts a match of a query word itself, beside other expansions. */
export const EXACT_HEADING_WEIGHT = 2;
/** Queries of more terms (questions) look for no joined term: their pairs are many, and they name no API. */
export const JOINED_MAX_TERMS = 4;

export class MatchSets {
  private readonly segments: SegmentData[];
  private readonly dictionary: TermDictionary;
  private readonly marks: Uint8Array[] = [];
  /** The ids the last call marked per segment: the next call clears exactly those. */
  private readonly marked: number[][] = [];
  private readonly idLists = new WeakMap<Uint8Array, Int32Array>();
  private readonly termSets = new WeakMap<Uint8Array, Set<string>>();
  /** Per set with joined terms: the weight of each of its ids (ids order), JOINED_WEIGHT for a joined term, else 1. */
  private readonly weightLists = new WeakMap<Uint8Array, Uint8Array>();
  /** Per set with joined terms: their strings (a page's words are matched by their terms). */
  private readonly joinedSets = new WeakMap<Uint8Array, Set<string>>();
  /** Per set whose headings weigh matches apart: the heading weight of each id (ids order). */
  private readonly headingWeightLists = new WeakMap<Uint8Array, Uint8Array>();
  /** Per set with heading weights: the query words themselves, whose heading matches count EXACT_HEADING_WEIGHT times. */
  private readonly exactSets = new WeakMap<Uint8Array, Set<string>>();

  constructor(segments: SegmentData[], dictionary: TermDictionary) {
    this.segments = segments;
    this.dictionary = dictionary;
  }

  /** Per-segment marks (1 = counts as a match) over each segment's term ids; `joinWords` only join (text.ts queryJoinWords). */
  of(terms: string[], joinWords: readonly string[] = []): Uint8Array[] {
    // every mark is recorded in lists as it is set: the next call clears exactly those, even after a throw
    const lists: number[][] = this.segments.map(() => []);
    const sets = this.segments.map((s, k) => {
      let m = this.marks[k];
      if (!m) m = this.marks[k] = new Uint8Array(s.terms.length);
      else for (const id of this.marked[k]!) m[id] = 0;
      this.marked[k] = lists[k]!;
      return m.subarray(0); // a new view: sets are keys of idLists, termSets and the weight and term maps below
    });
    const strings = new Set<string>();
    const mark = (ids: Int32Array) =>
      ids.forEach((id, k) => {
        if (id >= 0 && sets[k]![id] !== 1) {
          sets[k]![id] = 1;
          lists[k]!.push(id);
        }
      });
    const exact: Expansion[] = [];
    let expanded = false;
    for (const t of terms) {
      for (const v of this.dictionary.expansions(t)) {
        strings.add(v.term);
        mark(v.ids);
        if (v.term === t) exact.push(v);
        else expanded = true;
      }
    }
    const words = terms.length + joinWords.length;
    const joined = words < 2 || words > JOINED_MAX_TERMS ? [] : this.dictionary.joinedTerms(terms, joinWords);
    for (const j of joined) {
      strings.add(j.term);
      mark(j.ids);
    }
    const joinedStrings = joined.length > 0 ? new Set(joined.map((j) => j.term)) : undefined;
    // a query word's own heading matches weigh more only beside other expansions (else every heading match would)
    const exactStrings = expanded && exact.length > 0 ? new Set(exact.map((v) => v.term)) : undefined;
    sets.forEach((set, k) => {
      const ids = Int32Array.from(lists[k]!).sort();
      this.idLists.set(set, ids);
      this.termSets.set(set, strings);
      const weighted = joined.filter((j) => j.ids[k]! >= 0).map((j) => j.ids[k]!);
      if (weighted.length > 0) {
        this.weightLists.set(set, Uint8Array.from(ids, (id) => (weighted.includes(id) ? JOINED_WEIGHT : 1)));
        this.joinedSets.set(set, joinedStrings!);
      }
      const exactIds = exactStrings ? exact.filter((v) => v.ids[k]! >= 0).map((v) => v.ids[k]!) : [];
      if (exactIds.length > 0) {
        // a joined term is a query's words as typed too: its heading matches count EXACT_HEADING_WEIGHT times its weight
        const headingWeight = (id: number) => (weighted.includes(id) ? JOINED_WEIGHT * EXACT_HEADING_WEIGHT : exactIds.includes(id) ? EXACT_HEADING_WEIGHT : 1);
        this.headingWeightLists.set(set, Uint8Array.from(ids, headingWeight));
        this.exactSets.set(set, exactStrings!);
      }
    });
    return sets;
  }

  /** Per id of a set (ids order), how many times a section counts its match; undefined when every id counts once. */
  weights(set: Uint8Array): Uint8Array | undefined {
    return this.weightLists.get(set);
  }

  /** Per id of a set (ids order), how many times a section's heading counts its match; undefined when as weights(). */
  headingWeights(set: Uint8Array): Uint8Array | undefined {
    return this.headingWeightLists.get(set);
  }

  /** The query words of a set whose heading matches count EXACT_HEADING_WEIGHT times, or undefined. */
  exactTerms(set: Uint8Array): Set<string> | undefined {
    return this.exactSets.get(set);
  }

  /** The joined terms of a set (JOINED_WEIGHT each), or undefined. */
  joinedTerms(set: Uint8Array): Set<string> | undefined {
    return this.joinedSets.get(set);
  }

  /** Term ids marked in a set, ascending. */
  ids(set: Uint8Array): Int32Array {
    let ids = this.idLists.get(set);
    if (!ids) {
      let c = 0;
      for (let t = 0; t < set.length; t++) if (set[t] === 1) c++;
      ids = new Int32Array(c);
      c = 0;
      for (let t = 0; t < set.length; t++) if (set[t] === 1) ids[c++] = t;
      this.idLists.set(set, ids);
    }
    return ids;
  }

  /** The matched term strings of a set (excerpts re-tokenize page words and look their term up here). */
  terms(set: Uint8Array): Set<string> | undefined {
    return this.termSets.get(set);
  }
}
