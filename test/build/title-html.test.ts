// Titles with code spans (src/lib/title-html.ts): code in HTML, text in the document title, paired as CommonMark
// pairs backtick runs, escaped everywhere else, in time proportional to the title.
import { describe, expect, it } from 'vitest';
import { titleAnchor, titleHtml, titleText } from '../../src/lib/title-html.ts';

describe('titles with code spans', () => {
  it('show a code span as code and escape the rest', () => {
    expect(titleHtml('Auto-Cleanup with `using`')).toBe('Auto-Cleanup with <code>using</code>');
    expect(titleText('Auto-Cleanup with `using`')).toBe('Auto-Cleanup with using');
    expect(titleHtml('The `<head>` & "body"')).toBe('The <code>&lt;head&gt;</code> &amp; &quot;body&quot;');
  });

  it('pair backtick runs by length, read \\` as a backtick, and leave a run without a partner as text', () => {
    expect(titleHtml('``a`b``')).toBe('<code>a`b</code>');
    expect(titleHtml('`` `x` ``')).toBe('<code>`x`</code>');
    expect(titleHtml('Use \\`x\\`')).toBe('Use `x`');
    expect(titleHtml('a `b` c `d')).toBe('a <code>b</code> c `d');
    expect(titleHtml('```')).toBe('```');
  });

  it('read a title of megabytes of backticks in one pass', () => {
    for (const unit of ['` ', '``` `` ` ', '\\`']) expect(titleHtml(unit.repeat(200_000)).length).toBeGreaterThan(0);
  });
});

describe('a title’s anchor', () => {
  it('is the id its leading heading had on the source site (github-slugger, code without backticks)', () => {
    expect(titleAnchor('Web Frameworks')).toBe('web-frameworks');
    expect(titleAnchor("The hitchhiker's guide to `plugins`")).toBe('the-hitchhikers-guide-to-plugins');
  });
});
