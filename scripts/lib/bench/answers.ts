// The gateway's answers to every request the search mix can send (each query's first
// page, and the cursor page after a limited one), recorded to one file for the bare
// server (bare-server.ts): the same bytes and the headers the mix reads.
// File: a 4-byte length, a JSON index { path: [offset, length, headers] }, the bodies.
import { readFileSync, writeFileSync } from 'node:fs';
import type { BenchQuery } from '../../gen-corpus.ts';
import { searchPath } from './load.ts';

export interface RecordedAnswer {
  body: Buffer;
  headers: Record<string, string>;
}

/** Headers the mix reads (the cursor), and what any JSON answer carries. */
const KEPT_HEADERS = ['x-total-count', 'x-next-cursor', 'link'];

export async function recordAnswers(baseUrl: string, queries: BenchQuery[], file: string, concurrency = 4): Promise<{ answers: number; bytes: number }> {
  const index: Record<string, [number, number, Record<string, string>]> = {};
  const bodies: Buffer[] = [];
  let offset = 0;
  const fetchOne = async (path: string): Promise<string | undefined> => {
    const res = await fetch(baseUrl + path);
    const body = Buffer.from(await res.arrayBuffer());
    if (res.status !== 200) throw new Error(`recording ${path}: ${res.status} ${body.toString().slice(0, 200)}`);
    const headers: Record<string, string> = { 'content-type': 'application/json', 'content-length': String(body.length) };
    for (const name of KEPT_HEADERS) {
      const v = res.headers.get(name);
      if (v !== null) headers[name] = v;
    }
    index[path] = [offset, body.length, headers];
    bodies.push(body);
    offset += body.length;
    return headers['x-next-cursor'];
  };
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < queries.length) {
        const q = queries[next++]!;
        const cursor = await fetchOne(searchPath(q));
        if (cursor && q.limit) await fetchOne(searchPath(q, cursor));
      }
    }),
  );
  const head = Buffer.from(JSON.stringify(index));
  const len = Buffer.alloc(4);
  len.writeUInt32LE(head.length);
  writeFileSync(file, Buffer.concat([len, head, ...bodies]));
  return { answers: Object.keys(index).length, bytes: offset };
}

export function readAnswers(file: string): Map<string, RecordedAnswer> {
  const data = readFileSync(file);
  const headLength = data.readUInt32LE(0);
  const index = JSON.parse(data.subarray(4, 4 + headLength).toString()) as Record<string, [number, number, Record<string, string>]>;
  const base = 4 + headLength;
  return new Map(Object.entries(index).map(([path, [offset, length, headers]]) => [path, { body: data.subarray(base + offset, base + offset + length), headers }]));
}
