// Coverage ranking ('any', the search API and /ask): pages holding more of a query's meaningful words rank higher,
// a short query ranks the pages holding all its words first (those whose section headings hold them before the rest), question filler weighs little, the title counts as a
// field, and the total counts every page holding at least one word. An in-memory index of a few synthetic pages.
import { describe, expect, it } from 'vitest';
import { queryJoinWords, queryTerms } from '../../gateway/engine/text.ts';
import { SearchIndex } from '../../gateway/engine/search/search-index.ts';
import { buildSegment } from '../../gateway/engine/search/segment-builder.ts';
import { TermDictionary } from '../../gateway/engine/search/term-dictionary.ts';
import { fragment, miniIndex } from '../helpers/mini-index.ts';

const filler = 'The runner reads the files, starts the workers and reports what happened in the terminal once done.';
const pages = [
  // every word of the question, once each, in a long page
  fragment('/docs/guide/retries', 'Flaky tests', `${filler} A flaky test can retry automatically when it fails. ${filler} ${filler}`),
  // one word of it, in the title and many times in the body
  fragment('/docs/config/retry', 'Retry', `Retry retry retry: the retry option sets how often to retry. ${filler}`),
  // only question filler ("way", "use")
  fragment('/docs/guide/ways', 'Ways to use it', `There is a way to use it, and another way to use it. ${filler}`),
  // neither word of the two-word query below, one of the question
  fragment('/docs/guide/reviewer', 'Reviewer', `The reviewer checks pull requests. The reviewer agent reviews. ${filler}`),
  fragment('/docs/guide/deploy', 'Deploy', `Deploy the site: deploy, deploy and deploy again. ${filler}`),
  fragment('/docs/guide/release', 'Release pipeline', `${filler} It chains the reviewer and the deploy step. ${filler} ${filler}`),
  // "flaky" three times in a short body, not in the title: by its body alone it would outrank the "Flaky tests" page
  fragment('/docs/guide/notes', 'Notes', `Flaky, flaky and flaky again: the notes of a run. ${filler}`),
];
const { index, ranked: urls } = miniIndex(pages);

describe('coverage ranking', () => {
  it('ranks the page holding every meaningful word of a question above one holding a word often, even in its title', () => {
    const { urls: ranked } = urls('is there a way to retry a flaky test automatically');
    expect(ranked[0]).toBe('/docs/guide/retries');
    expect(ranked.indexOf('/docs/config/retry')).toBeGreaterThan(0);
  });

  it('a page holding only question filler ranks below every page holding a meaningful word', () => {
    const { urls: ranked } = urls('is there a way to retry a flaky test automatically');
    expect(ranked.at(-1)).toBe('/docs/guide/ways');
  });

  it('a short query ranks the pages holding all its words first', () => {
    const { urls: ranked, total } = urls('reviewer deploy');
    expect(ranked[0]).toBe('/docs/guide/release');
    expect(new Set(ranked.slice(1, 3))).toEqual(new Set(['/docs/guide/reviewer', '/docs/guide/deploy']));
    expect(total).toBe(3); // every page holding at least one word
    // match 'all' keeps only the page holding both
    expect(urls('reviewer deploy', 'all')).toEqual({ total: 1, urls: ['/docs/guide/release'] });
  });

  it('a page whose title holds the query ranks first, above a page holding it more often in its body', () => {
    const { urls: ranked } = urls('flaky');
    expect(ranked).toEqual(['/docs/guide/retries', '/docs/guide/notes']);
  });

  it('a word no page holds does not empty the title tier: the title holding every other word still ranks first', () => {
    // as "What projects has Robin done?" on a portfolio that never says "done"; the contact page has a "Project enquiries" section
    const projects = fragment('/projects', 'Projects', `A selection of recent work, one project at a time. ${filler.repeat(4)}`);
    const contact = fragment('/contact', 'Contact', `Project enquiries Describe the project and its timeline. ${filler}`);
    contact.anchors = [{ element: 'h2', id: 'project-enquiries', text: 'Project enquiries', location: 0 }];
    const mini = miniIndex([projects, contact]);
    expect(mini.ranked('projects').urls).toEqual(['/projects', '/contact']);
    expect(mini.ranked('projects zyxwvutsrq').urls).toEqual(['/projects', '/contact']);
  });

  it('a short query ranks the pages whose section headings hold it above pages that only mention it', () => {
    const words = (n: number) => Array.from({ length: n }, () => filler).join(' ');
    // the reference: a long page with a section headed `vi.spyOn`; the guide: a short page that uses it twice
    const reference = fragment('/docs/api/vi', 'Vi', `${words(6)} vi.spyOn Creates a spy on a method of an object. ${words(6)}`);
    reference.anchors = [{ element: 'h2', id: 'vi-spyon', text: 'vi.spyOn', location: reference.content.split(' ').indexOf('vi.spyOn') }];
    const guide = fragment('/docs/guide/spies', 'Spies', 'Use vi.spyOn to watch a method; vi.spyOn keeps the original.');
    const mini = miniIndex([guide, reference]);
    expect(mini.ranked('vi.spyOn').urls).toEqual(['/docs/api/vi', '/docs/guide/spies']);
    // a heading that only begins the word (a prefix) does not name it; nor does one holding one of two words
    expect(mini.ranked('vi.spy').urls[0]).toBe('/docs/guide/spies');
    expect(mini.ranked('vi.spyOn original').urls[0]).toBe('/docs/guide/spies');
  });

  it('a short query naming a page and one of its sections ranks that page with the heading tier ("bunfig preload")', () => {
    const words = (n: number) => Array.from({ length: n }, () => filler).join(' ');
    // the reference: a long page whose title holds one word, a section heading the other; guides hold both, often
    const title = 'The bunfig.toml reference of the runtime and its package manager';
    const reference = fragment('/docs/runtime/bunfig', title, `${words(20)} preload Scripts to run before a file. ${words(20)}`);
    reference.anchors = [{ element: 'h3', id: 'preload', text: 'preload', location: reference.content.split(' ').indexOf('preload') }];
    const guide = 'Preload it: add the preload script to bunfig.toml. In bunfig.toml, preload runs first; bunfig.toml preload, bunfig.toml preload.';
    const guides = [1, 2].map((n) => fragment(`/docs/guides/testing-${n}`, `Testing ${n}`, guide));
    const others = [1, 2, 3, 4, 5, 6].map((n) => fragment(`/docs/other-${n}`, `Other ${n}`, filler));
    const mini = miniIndex([...guides, reference, ...others]);
    expect(mini.ranked('bunfig preload').urls).toEqual(['/docs/runtime/bunfig', '/docs/guides/testing-1', '/docs/guides/testing-2']);
  });

  it('a page whose title holds the query and whose heading names it ranks in the heading tier', () => {
    const words = (n: number) => Array.from({ length: n }, () => filler).join(' ');
    // "show config": "show" is filler, so only "config" is counted; both pages have a heading holding it
    const config = fragment('/docs/config', 'Config', `${words(4)} Config options Every option the file takes. ${words(4)}`);
    config.anchors = [{ element: 'h2', id: 'config-options', text: 'Config options', location: config.content.split(' ').indexOf('options') - 1 }];
    const guide = fragment('/docs/guide', 'Guide', `${words(2)} Config Show the config you wrote. ${words(2)}`);
    guide.anchors = [{ element: 'h2', id: 'config', text: 'Config', location: guide.content.split(' ').indexOf('Config') }];
    const mini = miniIndex([guide, config]);
    expect(mini.ranked('show config').urls[0]).toBe('/docs/config');
  });

  it('a word only a description holds is a word no page holds: the title holding every other word still ranks first', () => {
    const projects = fragment('/projects', 'Projects', `A selection of recent work, one project at a time. ${filler.repeat(4)}`);
    const contact = fragment('/contact', 'Contact', `Project enquiries Describe the project, the project's timeline and the project's budget. ${filler}`);
    contact.anchors = [{ element: 'h2', id: 'project-enquiries', text: 'Project enquiries', location: 0 }];
    const mini = miniIndex([projects, contact], { '/contact': 'Write to me about a finished commission' });
    expect(mini.ranked('projects commission').urls).toEqual(['/projects', '/contact']);
    // in the title tier: the Projects title holds every word some page's text or title holds
    expect(mini.index.rank(queryTerms('projects commission'), undefined, 'any').titleMatch[0]).toBe(1);
    // and for a question, the word still counts where a description holds it
    const words = (n: number) => Array.from({ length: n }, () => filler).join(' ');
    const quote = fragment('/quote', 'Quote', `Budget and timeline of the work. ${words(3)}`);
    const notes = fragment('/notes', 'Notes', 'Budget and timeline notes.');
    const described = miniIndex([quote, notes], { '/quote': 'Commission budget timeline' });
    expect(described.ranked('commission budget timeline plan').urls[0]).toBe('/quote');
  });

  it("sections open at headings only: an id inside a heading (another tool's) or on a code group's tab and panel belongs to the heading's section", () => {
    const words = (n: number) => Array.from({ length: n }, () => filler).join(' ');
    const page = fragment('/docs/api/vi', 'Vi', `${words(3)} vi.fn Creates a spy on a function. ${words(3)} vi.when Stubs by argument. npm pnpm add -D vitest-when ${words(3)}`);
    const at = (word: string) => page.content.split(' ').indexOf(word);
    page.anchors = [
      { element: 'h2', id: 'vifn', text: 'vi.fn', location: at('vi.fn') },
      { element: 'span', id: 'vi-fn', text: '', location: at('vi.fn') },
      { element: 'h2', id: 'viwhen', text: 'vi.when', location: at('vi.when') },
      { element: 'span', id: 'vi-when', text: '', location: at('vi.when') },
      // the code group's tab buttons, then its panels (all but the first hidden)
      { element: 'button', id: 'code-group-1-1-tab', text: 'npm', location: at('npm') },
      { element: 'button', id: 'code-group-1-2-tab', text: 'pnpm', location: at('pnpm') },
      { element: 'div', id: 'code-group-1-2', text: '', location: at('add') },
    ];
    const mini = miniIndex([page]);
    const hitOf = (query: string) => {
      const sets = mini.index.matchSets(queryTerms(query));
      return mini.index.hit(mini.index.rank(queryTerms(query), undefined, 'any').docs[0]!, 1, false, sets).url;
    };
    expect(hitOf('vi.fn')).toBe('/docs/api/vi#vifn');
    expect(hitOf('pnpm add vitest-when')).toBe('/docs/api/vi#viwhen');
  });

  it("a hit lands on the section whose heading holds the query's words, not on one whose body repeats one of them", () => {
    // Vite's features page: "Glob Import", then a subsection whose code says `import.meta.glob` again and again
    const body = 'import.meta.glob import glob import import from glob import';
    const page = fragment('/docs/guide/features', 'Features', `${filler} Glob Import Vite imports many modules at once. Named Imports ${body} ${body} ${filler}`);
    const at = (word: string) => page.content.split(' ').indexOf(word);
    page.anchors = [
      { element: 'h2', id: 'glob-import', text: 'Glob Import', location: at('Glob') },
      { element: 'h3', id: 'named-imports', text: 'Named Imports', location: at('Named') },
    ];
    const mini = miniIndex([page, fragment('/docs/guide/other', 'Other', filler)]);
    const terms = queryTerms('glob import');
    // from the section postings (a hit past the first ranks, or a query whose postings are few) and from the page's
    // words (a query-excerpt hit of a query whose postings are many: here every query, wordsOverPostings 0) alike
    for (const index of [mini.index, new SearchIndex([mini.segment], { wordsOverPostings: 0 })]) {
      const sets = index.matchSets(terms);
      const doc = index.rank(terms, undefined, 'any').docs[0]!;
      expect(index.hit(doc, 1, false, sets, false).url).toBe('/docs/guide/features#glob-import');
      expect(index.hit(doc, 1, false, sets, true).url).toBe('/docs/guide/features#glob-import');
    }
  });

  it('a heading that holds the query word as typed wins over one holding a longer word it begins (`mockResolvedValue`)', () => {
    // the `Once` variant's section names the method more often, and the first word's prefix matches its heading alike
    const mockPage = (n: number) => {
      const page = fragment(`/docs/api/mock-${n}`, `Mock ${n}`, `${filler} mockResolvedValue Resolves a promise. ${filler} mockResolvedValueOnce Resolves once: mockResolvedValueOnce, mockResolvedValueOnce and mockResolvedValueOnce. ${filler}`);
      const at = (word: string) => page.content.split(' ').indexOf(word);
      page.anchors = [
        { element: 'h2', id: 'mockresolvedvalue', text: 'mockResolvedValue', location: at('mockResolvedValue') },
        { element: 'h2', id: 'mockresolvedvalueonce', text: 'mockResolvedValueOnce', location: at('mockResolvedValueOnce') },
      ];
      return page;
    };
    const mini = miniIndex(Array.from({ length: 100 }, (_, n) => mockPage(n)));
    const terms = queryTerms('mockResolvedValue');
    // the section postings, the page's words (every query at wordsOverPostings 0), and the postings summed over a long tail
    for (const index of [mini.index, new SearchIndex([mini.segment], { wordsOverPostings: 0 })]) {
      const sets = index.matchSets(terms);
      const ranking = index.rank(terms, undefined, 'any');
      expect(index.hit(ranking.docs[0]!, 1, false, sets, true).url).toMatch(/#mockresolvedvalue$/);
      expect(index.hit(ranking.docs[0]!, 1, false, sets, false).url).toMatch(/#mockresolvedvalue$/);
      const all = JSON.parse(index.resultsJson(ranking.docs, ranking.scores, ranking.titleMatch, 0, sets)) as { url: string }[];
      expect(all.every((hit) => hit.url.endsWith('#mockresolvedvalue'))).toBe(true);
    }
    // the longer name still opens its own section
    const once = queryTerms('mockResolvedValueOnce');
    expect(mini.index.hit(mini.index.rank(once, undefined, 'any').docs[0]!, 1, false, mini.index.matchSets(once)).url).toMatch(/#mockresolvedvalueonce$/);
  });

  it('an API typed as words lands on the section its joined name heads (`describe skip`: `describe.skip`)', () => {
    // `describe.concurrent` first, its body saying "describe" more often: by the words alone it would win
    const describePage = (n: number) => {
      const page = fragment(`/docs/api/describe-${n}`, `Describe ${n}`, `${filler} describe.concurrent Runs describe blocks at once: describe, describe and describe. describe.skip Skips a suite. ${filler}`);
      const at = (word: string) => page.content.split(' ').indexOf(word);
      page.anchors = [
        { element: 'h2', id: 'describe-concurrent', text: 'describe.concurrent', location: at('describe.concurrent') },
        { element: 'h2', id: 'describe-skip', text: 'describe.skip', location: at('describe.skip') },
      ];
      return page;
    };
    const describePages = Array.from({ length: 100 }, (_, n) => describePage(n));
    const mini = miniIndex(describePages);
    const terms = queryTerms('describe skip');
    // from the section postings (a hit past the first ranks), from the page's words (a query-excerpt hit when the
    // postings are many: every query at wordsOverPostings 0), and from the postings summed over a long tail (64 hits)
    for (const index of [mini.index, new SearchIndex([mini.segment], { wordsOverPostings: 0 })]) {
      const sets = index.matchSets(terms);
      const ranking = index.rank(terms, undefined, 'any');
      expect(index.hit(ranking.docs[0]!, 1, false, sets, true).url).toMatch(/#describe-skip$/);
      expect(index.hit(ranking.docs[0]!, 1, false, sets, false).url).toMatch(/#describe-skip$/);
      const all = JSON.parse(index.resultsJson(ranking.docs, ranking.scores, ranking.titleMatch, 0, sets)) as { url: string }[];
      expect(all).toHaveLength(100);
      expect(all.every((hit) => hit.url.endsWith('#describe-skip'))).toBe(true);
    }
    // typed as written, it is one word: the same section
    expect(mini.index.hit(mini.index.rank(queryTerms('describe.skip'), undefined, 'any').docs[0]!, 1, false, mini.index.matchSets(queryTerms('describe.skip'))).url).toMatch(/#describe-skip$/);
    // a question (more than four terms) looks for no joined term: the body decides
    const question = queryTerms('describe skip suite blocks runs');
    expect(question.length).toBeGreaterThan(4);
    expect(mini.index.hit(mini.index.rank(question, undefined, 'any').docs[0]!, 1, false, mini.index.matchSets(question), false).url).toMatch(/#describe-concurrent$/);
  });

  it('an API typed as words ranks the page whose heading names it first among the pages whose headings hold the words (`test each`)', () => {
    // the guide's heading holds both words apart and its body repeats them; the reference's heading is `test.each`
    const guide = fragment('/docs/guide/lifecycle', 'Lifecycle', `${filler} Within Each Test File each test runs its hooks: each test, each test and each test. ${filler}`);
    guide.anchors = [{ element: 'h2', id: 'within-each-test-file', text: 'Within Each Test File', location: guide.content.split(' ').indexOf('Within') }];
    const reference = fragment('/docs/api/test', 'Test API', `${filler} ${filler} ${filler} test.each Runs a test once per row of a table. ${filler}`);
    reference.anchors = [{ element: 'h2', id: 'test-each', text: 'test.each', location: reference.content.split(' ').indexOf('test.each') }];
    const mini = miniIndex([guide, reference, ...Array.from({ length: 20 }, (_, n) => fragment(`/docs/other-${n}`, `Other ${n}`, `A test page ${n}.`))]);
    expect(mini.ranked('test each').urls.slice(0, 2)).toEqual(['/docs/api/test', '/docs/guide/lifecycle']);
    // a question (more than four terms) looks for no joined term
    expect(mini.ranked('each test within file hooks runs').urls[0]).toBe('/docs/guide/lifecycle');
  });

  it('an API whose name holds a stopword, typed as two words, opens its section (`describe for`: `describe.for`)', () => {
    // the page's title is the other word, and its intro says it most: without the stopword the query is the title
    // `describe.skip` first: without the joined name the two sections tie and the first would win
    const page = fragment('/docs/api/describe', 'describe', `${filler} describe groups tests: describe, describe and describe. describe.skip Skips a suite. describe.for Runs a suite per row. ${filler}`);
    const at = (word: string) => page.content.split(' ').indexOf(word);
    page.anchors = [
      { element: 'h2', id: 'describeskip', text: 'describe.skip', location: at('describe.skip') },
      { element: 'h2', id: 'describefor', text: 'describe.for', location: at('describe.for') },
    ];
    const mini = miniIndex([page, ...Array.from({ length: 20 }, (_, n) => fragment(`/docs/other-${n}`, `Other ${n}`, `A test page ${n}.`))]);
    const first = (query: string, index = mini.index) => {
      const terms = queryTerms(query);
      const joinWords = queryJoinWords(query);
      const r = index.rank(terms, undefined, 'any', undefined, joinWords);
      return index.hit(r.docs[0]!, r.scores[0]!, r.titleMatch[0] === 1, index.matchSets(terms, joinWords), true).url;
    };
    expect(queryJoinWords('describe for')).toEqual(['for']);
    for (const index of [mini.index, new SearchIndex([mini.segment], { wordsOverPostings: 0 })]) expect(first('describe for', index)).toBe('/docs/api/describe#describefor');
    // the title alone is the page, as before
    expect(first('describe')).toBe('/docs/api/describe');
    // a longer query's stopwords are a phrase's, and join nothing ("Add a dependency", "Scopes and registries")
    expect(queryJoinWords('add a dependency')).toEqual([]);
    expect(queryJoinWords('for')).toEqual([]);
  });

  it('a two-word title holding its stopword keeps its title tier when the words also form a name (`log in`, `login`)', () => {
    const pages = [
      fragment('/docs/log-in', 'Log in', 'Open the account page and sign on with your password.'),
      fragment('/docs/sessions', 'Sessions', 'A session starts at login and ends at logout; login once per device. Every log line is kept.'),
      ...Array.from({ length: 20 }, (_, n) => fragment(`/docs/other-${n}`, `Other ${n}`, `Page ${n} writes a log.`)),
    ];
    const mini = miniIndex(pages);
    const terms = queryTerms('log in');
    const joinWords = queryJoinWords('log in');
    const r = mini.index.rank(terms, undefined, 'any', undefined, joinWords);
    expect(mini.index.hit(r.docs[0]!, 1, r.titleMatch[0] === 1, mini.index.matchSets(terms, joinWords), false).url).toBe('/docs/log-in');
    expect(r.titleMatch[0]).toBe(1);
  });

  it('a call typed with its arguments is the call: its section, as typed without them (`Gamma(x)`)', () => {
    const page = fragment('/docs/fn', 'Functions', `${filler} Alpha(x) Returns alpha. ${filler} Gamma(x) Returns gamma of x; Alpha(x) is its inverse. ${filler}`);
    const at = (word: string) => page.content.split(' ').indexOf(word);
    page.anchors = [
      { element: 'h2', id: 'alpha', text: 'Alpha(x)', location: at('Alpha(x)') },
      { element: 'h2', id: 'gamma', text: 'Gamma(x)', location: at('Gamma(x)') },
    ];
    const mini = miniIndex([page, ...Array.from({ length: 20 }, (_, n) => fragment(`/docs/other-${n}`, `Other ${n}`, `Page ${n}.`))]);
    expect(queryTerms('Gamma(x)')).toEqual(['gamma']);
    for (const query of ['Gamma(x)', 'gamma']) {
      const terms = queryTerms(query);
      const r = mini.index.rank(terms, undefined, 'any');
      expect(mini.index.hit(r.docs[0]!, 1, false, mini.index.matchSets(terms), true).url, query).toBe('/docs/fn#gamma');
    }
  });

  it('a heading that is a call with arguments is the section of its name (`Bun.secrets.get(options)`), on both paths', () => {
    // the intro names `Bun.secrets` more often; the sections' headings are calls, as Bun's reference writes them
    const page = fragment('/docs/runtime/secrets', 'Secrets', `${filler} Bun.secrets stores secrets: Bun.secrets, Bun.secrets and Bun.secrets. Bun.secrets.get(options) Reads a secret. Bun.secrets.set(options) Stores a secret. ${filler}`);
    const at = (word: string) => page.content.split(' ').indexOf(word);
    page.anchors = [
      { element: 'h2', id: 'bunsecretsgetoptions', text: 'Bun.secrets.get(options)', location: at('Bun.secrets.get(options)') },
      { element: 'h2', id: 'bunsecretssetoptions', text: 'Bun.secrets.set(options)', location: at('Bun.secrets.set(options)') },
    ];
    const mini = miniIndex([page, ...Array.from({ length: 20 }, (_, n) => fragment(`/docs/other-${n}`, `Other ${n}`, `Nothing secret on page ${n}.`))]);
    for (const query of ['Bun secrets get', 'Bun.secrets.get', 'bun secrets set']) {
      const terms = queryTerms(query);
      const urls = [mini.index, new SearchIndex([mini.segment], { wordsOverPostings: 0 })].map((index) => {
        const doc = index.rank(terms, undefined, 'any').docs[0]!;
        return index.hit(doc, 1, false, index.matchSets(terms), true).url;
      });
      expect(urls, query).toEqual(Array(2).fill(query.endsWith('set') ? '/docs/runtime/secrets#bunsecretssetoptions' : '/docs/runtime/secrets#bunsecretsgetoptions'));
    }
  });

  it('chooses the same section from the postings and from the page words when a term is both joined and typed (`test.each test each`)', () => {
    const page = fragment('/docs/api/test', 'Test', `${filler} test.each Runs once per row. ${filler} Each Test File each test and each test and each test. ${filler}`);
    const at = (word: string) => page.content.split(' ').indexOf(word);
    page.anchors = [
      { element: 'h2', id: 'test-each', text: 'test.each', location: at('test.each') },
      { element: 'h2', id: 'each-test-file', text: 'Each Test File', location: at('Each') },
    ];
    const mini = miniIndex([page, ...Array.from({ length: 20 }, (_, n) => fragment(`/docs/other-${n}`, `Other ${n}`, `Each page ${n} tests things.`))]);
    const terms = queryTerms('test.each test each');
    const urls = [mini.index, new SearchIndex([mini.segment], { wordsOverPostings: 0 })].map((index) => {
      const doc = index.rank(terms, undefined, 'any').docs[0]!;
      return index.hit(doc, 1, false, index.matchSets(terms), true).url;
    });
    expect(urls[1]).toBe(urls[0]);
  });

  it('counts a joined term in the segments that hold it, and the others as before', () => {
    const page = (url: string, withSkip: boolean) => {
      const text = `${filler} describe.concurrent Runs describe blocks at once: describe, describe and describe. ${withSkip ? 'describe.skip' : 'describe.only'} Skips a suite. ${filler}`;
      const fragmentOf = fragment(url, 'Describe', text);
      const at = (word: string) => text.split(' ').indexOf(word);
      fragmentOf.anchors = [
        { element: 'h2', id: 'describe-concurrent', text: 'describe.concurrent', location: at('describe.concurrent') },
        { element: 'h2', id: withSkip ? 'describe-skip' : 'describe-only', text: withSkip ? 'describe.skip' : 'describe.only', location: at(withSkip ? 'describe.skip' : 'describe.only') },
      ];
      return fragmentOf;
    };
    // the second segment does not hold `describe.skip`: its page lands where its words decide
    const index = new SearchIndex([buildSegment([page('/docs/a', true)], 1), buildSegment([page('/docs/b', false)], 1)]);
    const terms = queryTerms('describe skip');
    const sets = index.matchSets(terms);
    const urls = Array.from(index.rank(terms, undefined, 'any').docs, (doc) => index.hit(doc, 1, false, sets, false).url);
    expect(urls).toContain('/docs/a#describe-skip');
    expect(urls).toContain('/docs/b#describe-concurrent');
  });

  it('joins query words into the index term of a compound name, whatever the stemmer took between them or from the last', () => {
    const mini = miniIndex([fragment('/docs/api', 'API', 'optimizeDeps.include vi.spyOn server.proxy describe.skip describe.concurrent skip Bun.cron.parse import.meta.hot import.meta.hot.accept css.modules.classNameStrategy experimental.importDurations.thresholds S3Client.write S3Client.prototype.write S3Client.exists Bun.JSON5.parse() server.ws')]);
    const dictionary = new TermDictionary([mini.segment], 24);
    const joined = (query: string) => dictionary.joinedTerms(queryTerms(query)).map((e) => e.term);
    expect(joined('optimizeDeps include')).toEqual(['optimizedepsinclud']);
    expect(joined('vi spyOn')).toEqual(['vispyon']);
    expect(joined('proxy server')).toEqual(['serverproxy']);
    expect(joined('describe skip')).toEqual(['describeskip']);
    expect(joined('describe concurrent skip')).toEqual(['describeconcurrent', 'describeskip']);
    expect(joined('skip proxy')).toEqual([]);
    // names of three and four parts, typed in any order
    expect(joined('Bun cron parse')).toEqual(['buncronpars']);
    // the name in full, not the shorter one it begins with
    expect(joined('import meta hot accept')).toEqual(['importmetahotaccept']);
    expect(joined('import meta hot')).toEqual(['importmetahot']);
    expect(joined('parse cron Bun')).toEqual(['buncronpars']);
    // a middle word's ending the stemmer took: `modules` is `modul`, `importDurations` is `importdur`
    expect(joined('css modules classNameStrategy')).toEqual(['cssmodulesclassnamestrategy']);
    expect(joined('experimental importDurations thresholds')).toEqual(['experimentalimportdurationsthreshold']);
    // the last word's ending, which a name the stemmer left whole keeps (`S3Client.write`: `s3clientwrite`, `write` is `writ`)
    expect(joined('S3Client write')).toEqual(['s3clientwrite']);
    expect(joined('S3Client exists')).toEqual(['s3clientexists']);
    expect(joined('Bun JSON5 parse')).toEqual(['bunjson5parse']);
    // the name joining the most words: `S3Client.prototype.write`, not `S3Client.write`
    expect(joined('S3Client prototype write')).toEqual(['s3clientprototypewrite']);
    // the compound stemmed as a whole, as the index stems it (`server.ws` is `serverw`, `ws` stays `ws`)
    expect(joined('server ws')).toEqual(['serverw']);
  });

  it("a question's words in a page's description count for it, when it holds two or more of them", () => {
    const words = (n: number) => Array.from({ length: n }, () => filler).join(' ');
    // a reference page named by its command, long: the words of its description are drowned in its body
    const npx = fragment('/docs/commands/npx', 'npx', `Run a command from a local or remote package. ${words(12)} npx accepts a package.`);
    // a shorter page whose title holds one of the words, and which holds them all
    const run = fragment('/docs/commands/npm-run', 'npm run', `Run a script of the package: the command is looked up. ${words(2)}`);
    const lint = fragment('/docs/rules/no-command', 'no-command', `Flags the word. ${words(1)} a package, a command.`);
    const descriptions = { '/docs/commands/npx': 'Run a command from a local or remote package', '/docs/commands/npm-run': 'Run a script', '/docs/rules/no-command': 'Disallow command' };
    const question = 'run a command from a package without installing it';
    expect(miniIndex([npx, run, lint]).ranked(question).urls[0]).toBe('/docs/commands/npm-run');
    const described = miniIndex([npx, run, lint], descriptions);
    expect(described.ranked(question).urls[0]).toBe('/docs/commands/npx');
    // a short query ranks as before: its title and heading tiers decide
    expect(described.ranked('command package').urls).toEqual(miniIndex([npx, run, lint]).ranked('command package').urls);
  });

  it('counts descriptions in every segment of an index', () => {
    const words = (n: number) => Array.from({ length: n }, () => filler).join(' ');
    const npx = fragment('/docs/commands/npx', 'npx', `Run a command from a local or remote package. ${words(12)} npx accepts a package.`);
    const run = fragment('/docs/commands/npm-run', 'npm run', `Run a script of the package: the command is looked up. ${words(2)}`);
    const descriptions = { '/docs/commands/npx': { description: 'Run a command from a local or remote package' }, '/docs/commands/npm-run': { description: 'Run a script' } };
    // npx in the second segment, whose term ids differ from the first's
    const index = new SearchIndex([buildSegment([run], 1, descriptions), buildSegment([fragment('/docs/other', 'Other', words(3)), npx], 2, descriptions)]);
    const terms = queryTerms('run a command from a package without installing it');
    const sets = index.matchSets(terms);
    expect(index.hit(index.rank(terms, undefined, 'any').docs[0]!, 1, false, sets).path).toBe('/docs/commands/npx');
  });

  it('limited rankings are the prefix of the full ranking, with the same total', () => {
    const terms = queryTerms('how do I deploy the reviewer with a retry');
    const full = index.rank(terms, undefined, 'any');
    for (const k of [1, 2, 3, full.total]) {
      const top = index.rank(terms, undefined, 'any', k);
      expect(top.total).toBe(full.total);
      expect(Array.from(top.docs)).toEqual(Array.from(full.docs.subarray(0, k)));
    }
  });
});
