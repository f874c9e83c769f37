// The gateway's floors, checked on its import graph (every `import`, `export … from` and
// `import()` with a literal path, type-only ones included: they tie modules as much):
//   foundations  contract/ http/ limits/ static/ engine/ mcp/, the process helpers, build-settings.ts and site-url.ts
//   config       config.ts (one configuration for both apps)
//   apps         docs/ and assistant/ (neither imports the other)
//   entry        main.ts and server.ts
// A module imports its own floor or lower, never higher; there are no import cycles; the
// gateway imports nothing from scripts/, bench/, test/ or src/ (it serves the build only).
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const gatewayDir = join(root, 'gateway');

const floors: [floor: number, name: string, test: (path: string) => boolean][] = [
  [0, 'foundations', (p) => /^(contract|http|limits|static|engine|mcp)\//.test(p) || ['compile-cache.ts', 'process-tunables.ts', 'build-settings.ts', 'site-url.ts'].includes(p)],
  [1, 'config', (p) => p === 'config.ts'],
  [2, 'apps', (p) => /^(docs|assistant)\//.test(p)],
  [3, 'entry', (p) => ['main.ts', 'server.ts'].includes(p)],
];

function floorOf(path: string): { floor: number; name: string } {
  const found = floors.find(([, , test]) => test(path));
  if (!found) throw new Error(`gateway/${path} is on no floor: add its folder to the floors of test/house.test.ts`);
  return { floor: found[0], name: found[1] };
}

/** Import specifiers of a module, comments removed first. */
export function importsOf(source: string): string[] {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
  const specs: string[] = [];
  for (const re of [/\b(?:import|export)\s[^;'"`]*?\bfrom\s*['"]([^'"]+)['"]/g, /\bimport\s*['"]([^'"]+)['"]/g, /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g]) {
    for (const m of code.matchAll(re)) specs.push(m[1]!);
  }
  return specs;
}

function gatewayModules(): string[] {
  return readdirSync(gatewayDir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => relative(gatewayDir, join(e.parentPath, e.name)).split('\\').join('/'))
    .sort();
}

/** Module → the gateway modules it imports (relative to gateway/), plus any relative import that leaves gateway/. */
function graph(): { edges: Map<string, string[]>; outside: string[] } {
  const edges = new Map<string, string[]>();
  const outside: string[] = [];
  for (const mod of gatewayModules()) {
    const targets: string[] = [];
    for (const spec of importsOf(readFileSync(join(gatewayDir, mod), 'utf8'))) {
      if (!spec.startsWith('.')) continue; // a package
      const target = relative(gatewayDir, resolve(dirname(join(gatewayDir, mod)), spec)).split('\\').join('/');
      if (target.startsWith('..')) outside.push(`gateway/${mod} imports ${relative(root, resolve(dirname(join(gatewayDir, mod)), spec))}`);
      else targets.push(target);
    }
    edges.set(mod, [...new Set(targets)]);
  }
  return { edges, outside };
}

describe('the gateway house', () => {
  const { edges, outside } = graph();

  it('reads the imports it checks', () => {
    expect(importsOf("import { a } from './a.ts';\nimport type {\n  B,\n} from '../b.ts';\nexport { c } from './c.ts';\nconst d = await import('./d.ts');\n// import x from './comment.ts'")).toEqual(['./a.ts', '../b.ts', './c.ts', './d.ts']);
    expect(edges.get('main.ts')).toContain('docs/app.ts');
    expect(edges.size).toBeGreaterThan(50);
  });

  it('imports nothing from outside gateway/ (no scripts, bench, test or build-time code)', () => {
    expect(outside).toEqual([]);
  });

  it('no module imports one on a higher floor, and the apps do not import each other', () => {
    const violations: string[] = [];
    for (const [mod, targets] of edges) {
      const from = floorOf(mod);
      for (const target of targets) {
        if (!edges.has(target)) {
          violations.push(`${mod} imports ${target}, which does not exist`);
          continue;
        }
        const to = floorOf(target);
        if (to.floor > from.floor) violations.push(`${mod} (${from.name}) imports ${target} (${to.name})`);
        const app = (p: string) => /^(docs|assistant)\//.exec(p)?.[1];
        if (app(mod) && app(target) && app(mod) !== app(target)) violations.push(`${mod} imports the other app's ${target}`);
      }
    }
    expect(violations).toEqual([]);
  });

  it('has no import cycles', () => {
    const cycles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const stack: string[] = [];
    const visit = (mod: string): void => {
      state.set(mod, 'open');
      stack.push(mod);
      for (const target of edges.get(mod) ?? []) {
        if (state.get(target) === 'open') cycles.push([...stack.slice(stack.indexOf(target)), target].join(' → '));
        else if (!state.has(target) && edges.has(target)) visit(target);
      }
      stack.pop();
      state.set(mod, 'done');
    };
    for (const mod of edges.keys()) if (!state.has(mod)) visit(mod);
    expect(cycles).toEqual([]);
  });
});

describe('the rest of the house', () => {
  const files = (dir: string) =>
    readdirSync(join(root, dir), { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile() && /\.(ts|mjs|astro|css)$/.test(e.name))
      .map((e) => relative(root, join(e.parentPath, e.name)).split('\\').join('/'));

  it('keeps every source file of gateway/, src/ and scripts/ (TypeScript, Astro, CSS) under 600 lines', () => {
    const long = ['gateway', 'src', 'scripts']
      .flatMap(files)
      .map((file) => ({ file, lines: readFileSync(join(root, file), 'utf8').split('\n').length }))
      .filter((f) => f.lines > 600)
      .map((f) => `${f.file}: ${f.lines} lines`);
    expect(long).toEqual([]);
  });

  it('tooling imports nothing from test/ (the tests import tooling, scripts/lib/gateway-process.ts)', () => {
    const reaching: string[] = [];
    for (const file of files('scripts')) {
      for (const spec of importsOf(readFileSync(join(root, file), 'utf8'))) {
        if (spec.startsWith('.') && relative(root, resolve(dirname(join(root, file)), spec)).startsWith('test/')) reaching.push(`${file} imports ${spec}`);
      }
    }
    expect(reaching).toEqual([]);
  });
});
