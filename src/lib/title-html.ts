// Titles as authors write them: plain text, with identifiers in backticks (`Auto-Cleanup with \`using\``, a callout
// titled `vi.fn`). Shown in HTML, a code span is code; where only text goes (the document's <title>), it is the text
// without its backticks. Code spans pair as CommonMark pairs them (gateway/engine/inline-markdown.ts).

import GithubSlugger from 'github-slugger';
import { codeSpanParts, type InlinePart } from '../../gateway/engine/inline-markdown.ts';

export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** The title cut into text and code spans (gateway/engine/inline-markdown.ts), `\`` in its text a backtick. */
function titleParts(title: string): InlinePart[] {
  return codeSpanParts(title).map((part) => (part.code ? part : { code: false, text: part.text.replace(/\\`/g, '`') }));
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

/**
 * The id a page's title had as its leading `# heading` on GitHub (`# Web Frameworks` is `#web-frameworks`), which links
 * written there use to reach the top of the page; the layout puts it above the title unless the page already uses it.
 */
export function titleAnchor(title: string): string {
  return new GithubSlugger().slug(titleText(title));
}
