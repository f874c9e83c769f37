/**
 * Citation markers `[n]` in a model's streamed answer, checked against the sources the prompt numbered: a marker
 * naming no provided source (`[7]` of five sources, `[0]`) is dropped from the text before it reaches the client,
 * so a reader never follows a citation to nothing. The filter works on the stream: it holds back only a trailing
 * piece that may still become a marker (`[`, `[1`), so the answer keeps streaming as it is produced.
 */

/** A marker with the spaces before it (dropped with it: "word [9]." becomes "word."). */
/** A marker (not part of a word: `arr[0]` is code) with the spaces before it ("word [9]." becomes "word."). */
const MARKER = /( *)(?<![\w`])\[(\d{1,3})\]/g;
/** A suffix that can still grow into a marker or a fence line. */
const PARTIAL = / +$| *\[\d{0,3}$|(?:^|\n) {0,3}[`~]{1,2}$/;
const FENCE_LINE = /^ {0,3}(`{3,}|~{3,})/;

export interface CitationFilter {
  /** Text that can be sent now (possibly ''). */
  push(piece: string): string;
  /** The text held back at the end of the stream. */
  end(): string;
  /** Valid source numbers cited (1-based), in order of first citation. */
  readonly cited: number[];
  /** How many made-up markers were dropped. */
  readonly dropped: number;
}

export function citationFilter(sourceCount: number): CitationFilter {
  let held = '';
  let fence: string | null = null;
  let atLineStart = true;
  const cited: number[] = [];
  let dropped = 0;
  const cleanLine = (line: string) =>
    line.replace(MARKER, (marker, _spaces: string, digits: string, offset: number) => {
      // inside an inline code span (an odd number of backticks before it): code, not a citation
      if ((line.slice(0, offset).match(/`/g)?.length ?? 0) % 2 === 1) return marker;
      const n = Number(digits);
      if (n >= 1 && n <= sourceCount) {
        if (!cited.includes(n)) cited.push(n);
        return marker;
      }
      dropped++;
      return '';
    });
  /** Cleans text that starts at a line start when atLineStart; code inside fences is left alone. */
  const clean = (text: string) =>
    text
      .split('\n')
      .map((line, i) => {
        const whole = i > 0 || atLineStart;
        const marker = whole ? FENCE_LINE.exec(line) : null;
        if (marker) {
          if (fence === null) fence = marker[1]!;
          else if (marker[1]!.startsWith(fence) && line.trim() === marker[1]) fence = null;
          return line;
        }
        return fence === null ? cleanLine(line) : line;
      })
      .join('\n');
  const emit = (text: string) => {
    const out = clean(text);
    if (text) atLineStart = text.endsWith('\n');
    return out;
  };
  return {
    push(piece) {
      const text = held + piece;
      const partial = PARTIAL.exec(text);
      const cut = partial ? partial.index + (partial[0].startsWith('\n') ? 1 : 0) : text.length;
      held = text.slice(cut);
      return emit(text.slice(0, cut));
    },
    end() {
      const rest = emit(held);
      held = '';
      return rest;
    },
    get cited() {
      return cited;
    },
    get dropped() {
      return dropped;
    },
  };
}
