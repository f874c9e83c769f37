// A copy of a build whose search step ran again with parts of `partPages` pages (SEARCH_INDEX_PART_PAGES,
// src/integration/search-index.ts): what a site larger than the part size gets, made from the small fixture.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { copyBuild } from './fixture.ts';

/**
 * Copies `distDir`, lets `prepare` change the copy, and indexes it in parts; returns the copy (remove it when done) and
 * the step's output, or rejects with the output when the step fails.
 */
export async function indexedInParts(distDir: string, partPages: number, prepare?: (copy: string) => void): Promise<{ distDir: string; output: string }> {
  const copy = mkdtempSync(join(tmpdir(), 'agent-docs-parts-'));
  copyBuild(distDir, copy);
  prepare?.(copy);
  const output = await new Promise<string>((resolve, reject) => {
    const child = spawn(process.execPath, ['src/integration/search-index.ts', copy], {
      env: { ...process.env, SEARCH_INDEX_PART_PAGES: String(partPages), PRECOMPRESS: 'false' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d));
    child.stderr.on('data', (d: Buffer) => (out += d));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(out) : reject(Object.assign(new Error(`search step exited ${code}:\n${out}`), { copy }))));
  });
  return { distDir: copy, output };
}
