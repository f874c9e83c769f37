// Titles as authors write them: plain text, with identifiers in backticks (`Auto-Cleanup with \`using\``, a callout
// titled `vi.fn`). Shown in HTML, a code span is code; where only text goes (the document's <title>), it is the text
// without its backticks. Code spans pair as CommonMark pairs them: a run of backticks closes at the next run of the
// same length, `\`` is a backtick, and a run with no partner is text.

export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

interface Part {
  code: boolean;
  text: string;
}

/** The title cut into text and code spans, in one pass over its backtick runs (a title of any length). */
function titleParts(title: string): Part[] {
  const runs: { at: number; length: number }[] = [];
  for (let i = 0; i < title.length; i++) {
    if (title[i] === '\\' && title[i + 1] === '`') {
      i++;
      continue;
    }
    if (title[i] !== '`') continue;
    let length = 1;
    while (title[i + length] === '`') length++;
    runs.push({ at: i, length });
    i += length - 1;
  }
  // for each run, the next run of the same length (found from the end, so the whole title is read once)
  const next = new Array<number>(runs.length).fill(-1);
  const lastOfLength = new Map<number, number>();
  for (let r = runs.length - 1; r >= 0; r--) {
    next[r] = lastOfLength.get(runs[r]!.length) ?? -1;
    lastOfLength.set(runs[r]!.length, r);
  }
  const parts: Part[] = [];
  const text = (from: number, to: number) => {
    if (to > from) parts.push({ code: false, text: title.slice(from, to).replace(/\\`/g, '`') });
  };
  let from = 0;
  for (let r = 0; r < runs.length; r++) {
    const open = runs[r]!;
    if (open.at < from || next[r]! < 0) continue; // inside a span already taken, or no partner: text
    const close = runs[next[r]!]!;
    text(from, open.at);
    let code = title.slice(open.at + open.length, close.at);
    if (code.length > 2 && code.startsWith(' ') && code.endsWith(' ') && code.trim()) code = code.slice(1, -1);
    parts.push({ code: true, text: code });
    from = close.at + close.length;
    r = next[r]!;
  }
  text(from, title.length);
  return parts;
}

/** A title's text as HTML: escaped, `code` spans kept as code. */
export function titleHtml(title: string): string {
  return titleParts(title)
    .map((part) => (part.code ? `<code>${escapeHtml(part.text)}</code>` : escapeHtml(part.text)))
    .join('');
}

/** A title's text where no mark-up goes: its code spans without their backticks. */
export function titleText(title: string): string {
  return titleParts(title)
    .map((part) => part.text)
    .join('');
}
