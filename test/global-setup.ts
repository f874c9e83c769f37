// Builds the fixture site once for the whole run; tests read its path with inject('distDir').
import type { TestProject } from 'vitest/node';
import { buildSite, makeFixtureContent, removeDir } from './helpers/fixture.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    distDir: string;
    contentDir: string;
  }
}

export default async function setup(project: TestProject) {
  const contentDir = makeFixtureContent();
  const started = Date.now();
  const { code, output, distDir } = await buildSite(contentDir);
  if (code !== 0) throw new Error(`Fixture build failed (exit ${code}):\n${output.slice(-4000)}`);
  console.log(`fixture site built in ${((Date.now() - started) / 1000).toFixed(1)} s → ${distDir}`);
  project.provide('distDir', distDir);
  project.provide('contentDir', contentDir);
  return () => {
    if (!process.env.KEEP_FIXTURE) {
      removeDir(distDir);
      removeDir(contentDir);
    }
  };
}
