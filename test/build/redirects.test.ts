// Old URLs (src/lib/redirects.ts): a redirect target reaches nginx, static hosts and the gateway in a form none of
// them reads as syntax, and a source that no request path can match stops the build.
import { describe, expect, it } from 'vitest';
import { nginxRedirects, safeTarget } from '../../src/lib/redirects.ts';
import { canonicalPath } from '../../gateway/static/redirects.ts';

describe('redirect targets and the nginx snippet', () => {
  it('percent-encodes what a URL may not hold and the `$` nginx would expand, and keeps the rest', () => {
    expect(safeTarget('https://example.org/?c=$http_cookie')).toBe('https://example.org/?c=%24http_cookie');
    expect(safeTarget('https://example.org/日本 "x"{}\\')).toBe('https://example.org/%E6%97%A5%E6%9C%AC%20%22x%22%7B%7D%5C');
    expect(safeTarget('/docs/guide/page?x=1&y=2;z#part')).toBe('/docs/guide/page?x=1&y=2;z#part');
    expect(safeTarget('https://example.org/\ud800')).toBe('https://example.org/%EF%BF%BD'); // a lone surrogate
  });

  it('quotes every argument, so `;`, `{`, `}` and `#` stay text', () => {
    const conf = nginxRedirects([
      ['/old#x', '/docs/a'],
      ['/old-q', '/docs/b?x=1;%7D'],
      ['/file.txt', '/docs/c'],
    ]);
    expect(conf).toContain('location = "/old#x" { return 301 "/docs/a$is_args$args"; }');
    expect(conf).toContain('location = "/old#x/" { return 301 "/docs/a$is_args$args"; }');
    expect(conf).toContain('location = "/old-q" { return 301 "/docs/b?x=1;%7D"; }');
    expect(conf).not.toContain('"/file.txt/"');
  });

  it('spells every source one way: percent-encoded for _redirects and the gateway, decoded for nginx', () => {
    expect(canonicalPath('/café')).toBe('/caf%C3%A9');
    expect(canonicalPath('/caf%c3%a9')).toBe('/caf%C3%A9');
    expect(canonicalPath('/100%')).toBe('/100%25');
    expect(nginxRedirects([['/caf%C3%A9', '/docs/a']])).toContain('location = "/café" { return 301 "/docs/a$is_args$args"; }');
  });
});
