// Titles as authors write them: plain text, with identifiers in backticks (`Auto-Cleanup with \`using\``, a callout
// titled `vi.fn`). Shown in HTML, a code span is code; where only text goes (the document's <title>), it is the text
// without its backticks.

export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** A title's text as HTML: escaped, `code` spans kept as code. */
export function titleHtml(text: string): string {
  return escapeHtml(text).replace(/`([^`]+)`/g, '<code>$1</code>');
}

/** A title's text where no mark-up goes: its code spans' backticks dropped. */
export function titleText(text: string): string {
  return text.replace(/`([^`]+)`/g, '$1');
}
