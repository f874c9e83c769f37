// The compress-ahead worker thread (compress-ahead.ts): compresses each body it is sent into
// <dir>/<sha256>.gz and .br (written under a temporary name, then renamed, .gz first, so a
// reader that finds the .br finds a whole pair), and answers each message when done.
import { existsSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { compressedForms, contentKey } from './compress.ts';

const dir = (workerData as { dir: string }).dir;

parentPort!.on('message', (body: Uint8Array) => {
  const key = join(dir, contentKey(body));
  if (!existsSync(`${key}.br`)) {
    const forms = compressedForms(body);
    if (forms) {
      writeFileSync(`${key}.gz.part`, forms.gz);
      writeFileSync(`${key}.br.part`, forms.br);
      renameSync(`${key}.gz.part`, `${key}.gz`);
      renameSync(`${key}.br.part`, `${key}.br`);
    }
  }
  parentPort!.postMessage(0);
});
