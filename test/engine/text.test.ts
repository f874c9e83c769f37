import { describe, expect, it } from 'vitest';
import { QUESTION_FILLER, decodeEntities, queryTerms, splitSentences, stem, toPlainText, wordTerms } from '../../gateway/engine/text.ts';

describe('text utilities', () => {
  it('stems plurals and verb forms the same way on both sides', () => {
    expect(stem('installing')).toBe(stem('installed'));
    expect(stem('installs')).toBe('install');
    expect(stem('libraries')).toBe('library');
    expect(stem('caching')).toBe(stem('caches'));
    expect(stem('running')).toBe('run');
    expect(stem('class')).toBe('class');
    expect(stem('status')).toBe('status');
  });

  it('brings every form of a word to one stem, singulars ending in -s and -x included', () => {
    for (const form of ['aliases', 'aliased', 'aliasing']) expect(stem(form)).toBe(stem('alias'));
    expect(stem('canvases')).toBe(stem('canvas'));
    expect(stem('cookies')).toBe(stem('cookie'));
    expect(stem('apis')).toBe(stem('api'));
    expect(stem('uris')).toBe(stem('uri'));
    expect(stem('fixes')).toBe(stem('fix'));
    expect(stem('indexes')).toBe(stem('index'));
    expect(stem('analysis')).toBe('analysis');
  });

  it('brings the -ate family to its root: the noun a reader types meets the verb the page uses', () => {
    for (const form of ['isolation', 'isolated', 'isolating', 'isolates']) expect(stem(form)).toBe(stem('isolate'));
    expect(stem('configuration')).toBe(stem('configure'));
    expect(stem('validator')).toBe(stem('validate'));
    expect(stem('deprecation')).toBe(stem('deprecated'));
    // a root shorter than four letters keeps the usual stem; a word that only ends in -at is not of the family
    expect(stem('updated')).toBe(stem('update'));
    expect(stem('creation')).toBe('creation');
    expect(stem('formatted')).toBe(stem('format'));
    expect(stem('format')).toBe('format');
  });

  it('splits compound words into a joined term plus parts, folds case and diacritics', () => {
    expect(wordTerms('Node.js')).toEqual(['nodej', 'node', 'js']);
    expect(wordTerms('Café')).toEqual(['cafe']);
    expect(wordTerms('snake_case')).toEqual(['snake_case']);
    expect(wordTerms('—')).toEqual([]);
  });

  it("also holds a call's name without its arguments, so the API as a reader types it matches exactly", () => {
    expect(wordTerms('Bun.secrets.get(options)')).toEqual(['bunsecretsgetoption', 'bun', 'secret', 'get', 'option', 'bunsecretsget']);
    // a heading's words are split at spaces: the name is in the first
    expect(wordTerms('server.timeout(Request,')).toContain('servertimeout');
    expect(queryTerms('server.timeout')).toEqual(['servertimeout']);
    // nothing to add: no arguments, or a name of one part (already a part)
    expect(wordTerms('process.exit()')).toEqual(['processexit', 'process', 'exit']);
    expect(wordTerms('fetch(url)')).toEqual(['fetchurl', 'fetch', 'url']);
    // a title's camelCase name, split into its words, still holds it whole; a call in brackets too
    expect(wordTerms('defineConfig(options)', true)).toContain('defineconfig');
    expect(wordTerms('(Bun.file(path))')).toContain(queryTerms('Bun.file')[0]);
  });

  it('splits camelCase identifiers into their words when asked (page titles such as `setupFiles`)', () => {
    expect(wordTerms('setupFiles')).toEqual(['setupfil']);
    expect(wordTerms('setupFiles', true)).toEqual(['setupfil', 'setup', 'file']);
    expect(wordTerms('HTMLElement', true)).toEqual(['htmlelement', 'html', 'element']);
    expect(wordTerms('browser.testerHtmlPath', true)).toEqual(['browsertesterhtmlpath', 'browser', 'tester', 'html', 'path', 'testerhtmlpath']);
    // the parts between its dots stay words too, as a reader types the option (`install frozenLockfile`)
    expect(wordTerms('install.frozenLockfile', true)).toEqual(['installfrozenlockfil', 'install', 'frozen', 'lockfil', 'frozenlockfil']);
    expect(wordTerms('IPv6', true)).toEqual(['ipv6']);
    expect(wordTerms('Mocking', true)).toEqual(['mock']);
  });

  it('keeps "why" in queries (titles such as "Why Vitest") while dropping other function words', () => {
    expect(queryTerms('Why Vitest')).toEqual(['vitest', 'why']);
    expect(queryTerms('what is the config')).toEqual(['config']);
  });

  it('keeps the verbs a question is asked with, which also name APIs and commands (`describe.skip`, `npm explain`)', () => {
    expect(queryTerms('describe skip')).toEqual(['describ', 'skip']);
    expect(queryTerms('npm explain')).toEqual(['explain', 'npm']);
    expect(queryTerms('npm show')).toEqual(['npm', 'show']);
    // as question filler they weigh little in the ranking (query.ts FILLER_WEIGHT)
    expect(['tell', 'explain', 'describe', 'show', 'give'].every((w) => QUESTION_FILLER.has(queryTerms(w)[0]!))).toBe(true);
  });

  it('canonicalizes queries: dedupe, sort, drop punctuation', () => {
    expect(queryTerms('  Widget  gadget, WIDGET?! ')).toEqual(['gadget', 'widget']);
    expect(queryTerms('?!')).toEqual([]);
  });

  it('produces plain text', () => {
    expect(decodeEntities('a &amp; b &lt;c&gt; &#65;&#x42; &hellip;')).toBe('a & b <c> AB …');
    expect(toPlainText('<mark>Install</mark> the <b>CLI</b>&nbsp;now <!-- x -->')).toBe('Install the CLI now');
    expect(toPlainText('run deploy &lt;target&gt;')).toBe('run deploy <target>');
    expect(toPlainText('&lt;script&gt;alert(1)&lt;/script&gt;')).toBe('alert(1)');
  });

  it('splits sentences', () => {
    expect(splitSentences('One sentence. Two here! Three? v1.2 stays. "Quoted" next.')).toEqual(['One sentence.', 'Two here!', 'Three? v1.2 stays.', '"Quoted" next.']);
  });
});
