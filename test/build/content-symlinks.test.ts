// Symbolic links in a content folder (src/lib/content-links.ts): a link that leads out of the folder stops the build,
// named, unless CONTENT_SYMLINKS=follow, and so does one that leads nowhere; the reads that take a path from a page (code and Markdown includes, linked
// assets) never follow one out of it; links inside the folder are files like any other.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { badContentLinks, checkContentLinks, checkContentTree, contentFiles, forgetLinkTable, globLiteral, insideTree, linkTable, resolveLink, unwalkedLinkedFolders } from '../../src/lib/content-links.ts';
import { SourceConverter } from '../../src/lib/source-markdown.ts';

const outside = mkdtempSync(join(tmpdir(), 'symlinks-outside-'));
writeFileSync(join(outside, 'secret.ts'), 'export const token = "top secret";\n');
writeFileSync(join(outside, 'secret.md'), '# Secret\n\ntop secret\n');
writeFileSync(join(outside, 'key.png'), 'top secret');

const tree = mkdtempSync(join(tmpdir(), 'symlinks-tree-'));
mkdirSync(join(tree, 'guide'));
writeFileSync(join(tree, 'guide/index.md'), '# Guide\n');
writeFileSync(join(tree, 'guide/sample.ts'), 'export const a = 1;\n');
writeFileSync(join(tree, 'guide/logo.png'), 'png');
symlinkSync(join(outside, 'secret.md'), join(tree, 'guide/secret.md')); // a page out of the tree
symlinkSync(outside, join(tree, 'shared')); // a folder out of the tree
symlinkSync(join(outside, 'key.png'), join(tree, 'guide/key.png')); // an asset out of the tree
symlinkSync(join(tree, 'guide/sample.ts'), join(tree, 'guide/alias.ts')); // inside: a file like any other
symlinkSync(join(tree, 'guide'), join(tree, 'guide-again')); // inside: a folder
symlinkSync(join(outside, 'gone.md'), join(tree, 'guide/dangling.md')); // leads nowhere: nothing to read
mkdirSync(join(tree, 'guide/deep'));
symlinkSync(tree, join(tree, 'guide/deep/top')); // inside, but a cycle: the walk is in that folder already

afterAll(() => {
  rmSync(tree, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});
afterEach(() => {
  delete process.env.CONTENT_SYMLINKS;
  forgetLinkTable(tree);
});

function convert(body: string): string {
  return new SourceConverter({ mode: 'twin', contentDir: tree, note: () => {}, link: (target) => target }).convert(body, 'guide/index.md');
}

describe('symbolic links in the content folder', () => {
  it('lists the links that lead out of it, files and folders, and those that lead nowhere', () => {
    const bad = badContentLinks(tree).map((b) => `${b.link} ${b.problem}`).sort();
    expect(bad).toEqual(['guide/dangling.md missing', 'guide/key.png outside', 'guide/secret.md outside', 'shared outside']);
  });

  it('stops the build naming each link and where it leads, and says how to allow them', () => {
    expect(() => checkContentLinks(tree)).toThrow(/Symbolic links in the content folder .* that the build does not read/);
    expect(() => checkContentLinks(tree)).toThrow(`guide/secret.md → ${join(outside, 'secret.md')}\n`);
    expect(() => checkContentLinks(tree)).toThrow(`guide/dangling.md → ${join(outside, 'gone.md')} (does not exist)`);
    expect(() => checkContentLinks(tree)).toThrow('CONTENT_SYMLINKS=follow');
    // following links does not make one that leads nowhere readable
    process.env.CONTENT_SYMLINKS = 'follow';
    expect(() => checkContentLinks(tree)).toThrow(/guide\/dangling\.md .*\(does not exist\)\nRemove those links or restore their targets\./);
  });

  it('never reads a code or Markdown include through a link out of the tree', () => {
    expect(convert('<<< ../shared/secret.ts')).toContain('is not in the content folder');
    expect(convert('<!--@include: ./secret.md-->')).not.toContain('top secret');
    expect(convert('<<< ./alias.ts')).toContain('export const a = 1;');
    expect(convert('<<< ../guide-again/sample.ts')).toContain('export const a = 1;');
  });

  it('never takes a linked asset from out of the tree', () => {
    expect(resolveLink(linkTable(tree), 'guide/index.md', './key.png').kind).toBe('missing-asset');
    expect(resolveLink(linkTable(tree), 'guide/index.md', './logo.png').kind).toBe('asset');
  });

  it('follows them all with CONTENT_SYMLINKS=follow', () => {
    process.env.CONTENT_SYMLINKS = 'follow';
    expect(insideTree(tree, join(tree, 'guide/secret.md'))).toBe(true);
    expect(convert('<<< ../shared/secret.ts')).toContain('top secret');
    expect(resolveLink(linkTable(tree), 'guide/index.md', './key.png').kind).toBe('asset');
  });

  it('names a content folder that is not there, or is a file', () => {
    expect(() => checkContentTree(join(outside, 'nope'))).toThrow(`CONTENT_DIR is ${join(outside, 'nope')}, which is not there`);
    expect(() => checkContentTree(join(outside, 'secret.md'))).toThrow('which is not a folder');
  });

  it('walks each folder once: a linked folder inside the tree at its own place only, one outside it once when allowed', () => {
    const files = contentFiles(tree);
    expect(files).toContain('guide/index.md');
    expect(files.some((f) => f.startsWith('guide-again/') || f.includes('deep/top'))).toBe(false);
    expect(unwalkedLinkedFolders(tree).sort()).toEqual(['guide-again', 'guide/deep/top', 'shared']);
    process.env.CONTENT_SYMLINKS = 'follow';
    expect(contentFiles(tree)).toContain('shared/secret.md');
    expect(unwalkedLinkedFolders(tree).sort()).toEqual(['guide-again', 'guide/deep/top']);
  });

  it('ends at once on folders linked to each other, and never walks a folder above the tree', () => {
    const web = mkdtempSync(join(tmpdir(), 'symlinks-web-'));
    try {
      const folders = Array.from({ length: 7 }, (_, i) => `f${i}`);
      mkdirSync(join(web, 'docs'));
      for (const f of folders) {
        mkdirSync(join(web, f));
        writeFileSync(join(web, f, 'page.md'), `# ${f}\n`);
      }
      for (const f of folders) for (const g of folders) if (f !== g) symlinkSync(join(web, g), join(web, f, `to-${g}`));
      symlinkSync(join(web, 'f0'), join(web, 'docs/linked'));
      symlinkSync('/', join(web, 'docs/root'));
      symlinkSync(web, join(web, 'docs/up'));
      process.env.CONTENT_SYMLINKS = 'follow';
      const files = contentFiles(join(web, 'docs'));
      // f0 through the link, each other folder once through the first link that meets it
      expect(files.length).toBe(7);
      expect(new Set(files.map((f) => f.split('/').at(-2))).size).toBe(7);
      expect(unwalkedLinkedFolders(join(web, 'docs'))).toEqual(expect.arrayContaining(['root', 'up']));
    } finally {
      forgetLinkTable(join(web, 'docs'));
      rmSync(web, { recursive: true, force: true });
    }
  });

  it('writes a path as a glob that matches it alone', () => {
    expect(globLiteral('guide/a[1](x){y}*?!+@|.mdx')).toBe('guide/a\\[1\\]\\(x\\)\\{y\\}\\*\\?\\!\\+\\@\\|.mdx');
  });

  it('tells a link inside the tree from one out of it', () => {
    expect(insideTree(tree, join(tree, 'guide/alias.ts'))).toBe(true);
    expect(insideTree(tree, join(tree, 'guide/secret.md'))).toBe(false);
    expect(insideTree(tree, join(tree, 'guide/dangling.md'))).toBe(false);
  });
});
