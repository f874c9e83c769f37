/**
 * On-disk form of one index segment, loaded straight into a SharedArrayBuffer.
 * Layout: "ADSIDX" + u16 format version, u32 header length, header JSON (pages, vocab, array table),
 * then the typed arrays, each 8-byte aligned.
 */
import { chmodSync, closeSync, fstatSync, openSync, readSync, renameSync, writeSync } from 'node:fs';
import type { PageInfo, SegmentData } from './search-index.ts';

/**
 * 2: section term postings and precomputed static hits (secStart … hitParams).
 * 3: no per-word tables (tok, woff → wck checkpoints), narrower arrays (u16 docs, tf, section counts), short static hits
 *    stored without their page's title (titleOff/titleBytes, once per page).
 */
export const INDEX_FORMAT_VERSION = 3;
const MAGIC = 'ADSIDX';

type ArrayName = 'termStart' | 'pdoc' | 'ptf' | 'tStart' | 'tdoc' | 'docLen' | 'typeIdx' | 'posStart' | 'wck' | 'byteStart' | 'content' | 'zws'
  | 'secStart' | 'sxStart' | 'sxSec' | 'sxCnt' | 'hitOff' | 'hitSplit' | 'hitBytes' | 'titleOff' | 'titleBytes' | 'hitParams';
const ARRAYS: ArrayName[] = [
  'termStart', 'pdoc', 'ptf', 'tStart', 'tdoc', 'docLen', 'typeIdx', 'posStart', 'wck', 'byteStart', 'content', 'zws',
  'secStart', 'sxStart', 'sxSec', 'sxCnt', 'hitOff', 'hitSplit', 'hitBytes', 'titleOff', 'titleBytes', 'hitParams',
];
type ElemType = 'i32' | 'u32' | 'f32' | 'u16' | 'u8';
/** Element type of an array as built (pdoc/tdoc are u16 or i32 depending on the segment's page count). */
function typeOf(a: ArrayBufferView): ElemType {
  if (a instanceof Int32Array) return 'i32';
  if (a instanceof Uint32Array) return 'u32';
  if (a instanceof Float32Array) return 'f32';
  if (a instanceof Uint16Array) return 'u16';
  if (a instanceof Uint8Array) return 'u8';
  throw new Error('search index: unsupported array type');
}

interface Meta {
  version: number;
  fingerprint: string;
  nPages: number;
  size: number;
  arrays: { name: ArrayName; type: string; offset: number; length: number }[];
}

const align8 = (n: number) => (n + 7) & ~7;
const PREFIX = 16; // magic(6) version(u16) metaLen(u32) dataLen(u32)

/** Writes the segment atomically (temp file + rename); mode 0600 unless told (0644 for a build-output index). */
export function writeSegmentFile(file: string, seg: SegmentData, fingerprint: string, mode = 0o600): void {
  const arrays: Meta['arrays'] = [];
  let off = 0;
  for (const name of ARRAYS) {
    const a = seg[name];
    arrays.push({ name, type: typeOf(a), offset: off, length: a.length });
    off = align8(off + a.byteLength);
  }
  const data = Buffer.from(JSON.stringify({ pages: seg.pages, vocab: seg.vocab }), 'utf8');
  // size depends on the meta length: compute with a placeholder, then fix (size has a fixed width)
  const metaOf = (size: number) => Buffer.from(JSON.stringify({ version: INDEX_FORMAT_VERSION, fingerprint, nPages: seg.nPages, size: String(size).padStart(15, '0'), arrays }), 'utf8');
  const metaLen = metaOf(0).length;
  const dataStart = align8(PREFIX + metaLen + data.length);
  const size = dataStart + off;
  const meta = metaOf(size);
  const pre = Buffer.alloc(PREFIX);
  pre.write(MAGIC, 0, 'latin1');
  pre.writeUInt16LE(INDEX_FORMAT_VERSION, 6);
  pre.writeUInt32LE(meta.length, 8);
  pre.writeUInt32LE(data.length, 12);
  const tmp = `${file}.tmp-${process.pid}`;
  const fd = openSync(tmp, 'w', mode);
  const pad = Buffer.alloc(8);
  try {
    writeSync(fd, pre);
    writeSync(fd, meta);
    writeSync(fd, data);
    let pos = PREFIX + meta.length + data.length;
    for (const { name, offset } of arrays) {
      const a = seg[name];
      const want = dataStart + offset;
      if (want > pos) writeSync(fd, pad, 0, want - pos);
      writeSync(fd, new Uint8Array(a.buffer, a.byteOffset, a.byteLength));
      pos = want + a.byteLength;
    }
    if (size > pos) writeSync(fd, pad, 0, size - pos);
  } finally {
    closeSync(fd);
  }
  if (mode !== 0o600) chmodSync(tmp, mode); // not narrowed by the umask: the gateway may run as another user
  renameSync(tmp, file);
}

/** Reads a whole segment file into a new SharedArrayBuffer (one allocation, no copies later). */
export function readSegmentFile(file: string): SharedArrayBuffer {
  const fd = openSync(file, 'r');
  try {
    const size = fstatSync(fd).size;
    const sab = new SharedArrayBuffer(size);
    const u8 = new Uint8Array(sab);
    let got = 0;
    while (got < size) {
      const n = readSync(fd, u8, got, size - got, got);
      if (n <= 0) throw new Error(`short read on ${file}`);
      got += n;
    }
    return sab;
  } finally {
    closeSync(fd);
  }
}

function parseMeta(sab: SharedArrayBuffer): Meta & { metaLen: number; dataLen: number; dataStart: number } {
  const b = Buffer.from(sab);
  if (b.length < PREFIX || b.toString('latin1', 0, 6) !== MAGIC) throw new Error('not a search index file');
  const version = b.readUInt16LE(6);
  if (version !== INDEX_FORMAT_VERSION) throw new Error(`search index file format ${version} (expected ${INDEX_FORMAT_VERSION})`);
  const metaLen = b.readUInt32LE(8);
  const dataLen = b.readUInt32LE(12);
  if (PREFIX + metaLen + dataLen > b.length) throw new Error('search index file is truncated');
  const raw = JSON.parse(b.toString('utf8', PREFIX, PREFIX + metaLen)) as Omit<Meta, 'size'> & { size: string };
  const meta = { ...raw, size: Number(raw.size) };
  if (meta.size !== b.length) throw new Error(`search index file size ${b.length} (expected ${meta.size})`);
  return { ...meta, metaLen, dataLen, dataStart: align8(PREFIX + metaLen + dataLen) };
}

/** Validates a loaded segment file cheaply (prefix + small meta JSON); returns its fingerprint and page count. */
export function checkSegmentBuffer(sab: SharedArrayBuffer): { fingerprint: string; nPages: number } {
  const m = parseMeta(sab);
  for (const name of ARRAYS) if (!m.arrays.some((a) => a.name === name)) throw new Error(`search index file lacks ${name}`);
  return { fingerprint: m.fingerprint, nPages: m.nPages };
}

/** Typed-array views over the SharedArrayBuffer (shared between threads when posted) plus pages and vocabulary. */
export function segmentFromBuffer(sab: SharedArrayBuffer): SegmentData {
  const m = parseMeta(sab);
  const b = Buffer.from(sab);
  const data = JSON.parse(b.toString('utf8', PREFIX + m.metaLen, PREFIX + m.metaLen + m.dataLen)) as { pages: PageInfo[]; vocab: string[] };
  const views: Partial<Record<ArrayName, unknown>> = {};
  for (const { name, type, offset, length } of m.arrays) {
    const at = m.dataStart + offset;
    if (type === 'i32') views[name] = new Int32Array(sab, at, length);
    else if (type === 'u32') views[name] = new Uint32Array(sab, at, length);
    else if (type === 'f32') views[name] = new Float32Array(sab, at, length);
    else if (type === 'u16') views[name] = new Uint16Array(sab, at, length);
    else views[name] = new Uint8Array(sab, at, length);
  }
  for (const name of ARRAYS) if (!views[name]) throw new Error(`search index file lacks ${name}`);
  return { nPages: m.nPages, pages: data.pages, vocab: data.vocab, ...(views as Pick<SegmentData, ArrayName>) };
}
