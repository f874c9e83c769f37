/**
 * On-disk form of one index segment, loaded straight into a SharedArrayBuffer.
 * Layout: "ADSIDX" + u16 format version, u32 header length, header JSON (array table), then the typed arrays, each
 * 8-byte aligned. Pages and vocabulary are binary too (a string table + anchor columns), decoded on demand: a worker's
 * install parses no JSON beyond the header and builds no per-page objects.
 */
import { chmodSync, closeSync, fstatSync, openSync, readSync, renameSync, writeSync } from 'node:fs';
import { open } from 'node:fs/promises';
import type { AnchorInfo, List, PageInfo, PageList, SegmentData } from './search-index.ts';

/**
 * 2: section term postings and precomputed static hits (secStart … hitParams).
 * 3: no per-word tables (tok, woff → wck checkpoints), narrower arrays (u16 docs, tf, section counts), short static hits
 *    stored without their page's title (titleOff/titleBytes, once per page); binary page table and vocabulary.
 * 4: static hits stored whole again, title included (hitSplit, titleOff, titleBytes gone): one copy per hit.
 */
export const INDEX_FORMAT_VERSION = 4;
const MAGIC = 'ADSIDX';

type ArrayName = 'termStart' | 'pdoc' | 'ptf' | 'tStart' | 'tdoc' | 'docLen' | 'typeIdx' | 'posStart' | 'wck' | 'byteStart' | 'content' | 'zws'
  | 'secStart' | 'sxStart' | 'sxSec' | 'sxCnt' | 'hitOff' | 'hitBytes' | 'hitParams' | 'urlOrder';
/** The page table and vocabulary: strings (vocab j: j; page i: V + 3i + url|title|section; anchor a: V + 3n + 2a + id|text). */
type TableName = 'strOff' | 'strBytes' | 'aStart' | 'aLoc' | 'aWords' | 'aHeading';
const TABLES: TableName[] = ['strOff', 'strBytes', 'aStart', 'aLoc', 'aWords', 'aHeading'];
const ARRAYS: ArrayName[] = [
  'termStart', 'pdoc', 'ptf', 'tStart', 'tdoc', 'docLen', 'typeIdx', 'posStart', 'wck', 'byteStart', 'content', 'zws',
  'secStart', 'sxStart', 'sxSec', 'sxCnt', 'hitOff', 'hitBytes', 'hitParams', 'urlOrder',
];

function encodeTables(seg: SegmentData): Record<TableName, ArrayBufferView> {
  const n = seg.nPages;
  const V = seg.vocab.length;
  const strs: string[] = [];
  for (let j = 0; j < V; j++) strs.push(seg.vocab.at(j)!);
  let nA = 0;
  for (let i = 0; i < n; i++) {
    const p = seg.pages.at(i)!;
    strs.push(p.url, p.title, p.section);
    nA += p.anchors.length;
  }
  const aStart = new Uint32Array(n + 1);
  const aLoc = new Int32Array(nA);
  const aWords = new Uint32Array(nA);
  const aHeading = new Uint8Array(nA);
  let a = 0;
  for (let i = 0; i < n; i++) {
    aStart[i] = a;
    for (const x of seg.pages.at(i)!.anchors) {
      strs.push(x.id, x.text);
      aLoc[a] = x.loc;
      aWords[a] = x.words;
      aHeading[a++] = x.heading ? 1 : 0;
    }
  }
  aStart[n] = a;
  const bufs = strs.map((x) => Buffer.from(x, 'utf8'));
  const strOff = new Uint32Array(bufs.length + 1);
  for (let k = 0; k < bufs.length; k++) strOff[k + 1] = strOff[k]! + bufs[k]!.length;
  return { strOff, strBytes: Buffer.concat(bufs), aStart, aLoc, aWords, aHeading };
}

/** Strings of the table, decoded on demand (ASCII through latin1: no UTF-8 validation). */
class Strings {
  private readonly off: Uint32Array;
  private readonly buf: Buffer;
  private readonly bytes: Uint8Array;
  constructor(off: Uint32Array, bytes: Uint8Array) {
    this.off = off;
    this.bytes = bytes;
    this.buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
  get(k: number): string {
    const a = this.off[k]!;
    const b = this.off[k + 1]!;
    const u = this.bytes;
    for (let c = a; c < b; c++) if (u[c]! >= 0x80) return this.buf.toString('utf8', a, b);
    return this.buf.toString('latin1', a, b);
  }
}

class TableVocab implements List<string> {
  readonly length: number;
  private readonly s: Strings;
  constructor(s: Strings, n: number) {
    this.s = s;
    this.length = n;
  }
  at(j: number): string | undefined {
    return j >= 0 && j < this.length ? this.s.get(j) : undefined;
  }
}

class TablePages implements PageList {
  readonly length: number;
  private readonly s: Strings;
  private readonly V: number;
  private readonly t: Record<'aStart' | 'aLoc' | 'aWords' | 'aHeading', Uint32Array | Int32Array | Uint8Array>;
  /** Recently decoded pages (the top hits of recent queries). */
  private readonly memo = new Map<number, PageInfo>();
  constructor(s: Strings, V: number, n: number, t: Record<'aStart' | 'aLoc' | 'aWords' | 'aHeading', Uint32Array | Int32Array | Uint8Array>) {
    this.s = s;
    this.V = V;
    this.length = n;
    this.t = t;
  }
  url(i: number): string {
    return this.s.get(this.V + 3 * i);
  }
  title(i: number): string {
    return this.s.get(this.V + 3 * i + 1);
  }
  at(i: number): PageInfo | undefined {
    if (!(i >= 0 && i < this.length)) return undefined;
    let p = this.memo.get(i);
    if (p === undefined) {
      const { aStart, aLoc, aWords, aHeading } = this.t;
      const anchors: AnchorInfo[] = [];
      const s0 = this.V + 3 * this.length;
      for (let a = aStart[i]!, end = aStart[i + 1]!; a < end; a++) {
        anchors.push({ loc: aLoc[a]!, id: this.s.get(s0 + 2 * a), text: this.s.get(s0 + 2 * a + 1), heading: aHeading[a] === 1, words: aWords[a]! });
      }
      p = { url: this.url(i), title: this.title(i), section: this.s.get(this.V + 3 * i + 2), anchors };
      if (this.memo.size >= 1024) this.memo.clear();
      this.memo.set(i, p);
    }
    return p;
  }
}
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
  arrays: { name: ArrayName | TableName; type: string; offset: number; length: number }[];
}

const align8 = (n: number) => (n + 7) & ~7;
const PREFIX = 16; // magic(6) version(u16) metaLen(u32) dataLen(u32)

/** Writes the segment atomically (temp file + rename); mode 0600 unless told (0644 for a build-output index). */
export function writeSegmentFile(file: string, seg: SegmentData, fingerprint: string, mode = 0o600): void {
  const arrays: Meta['arrays'] = [];
  let off = 0;
  const tables = encodeTables(seg);
  const all = [...ARRAYS.map((name) => [name, seg[name]] as const), ...TABLES.map((name) => [name, tables[name]] as const)];
  for (const [name, a] of all) {
    arrays.push({ name, type: typeOf(a), offset: off, length: (a as Uint8Array).length });
    off = align8(off + a.byteLength);
  }
  const data = Buffer.alloc(0);
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
    for (const [k, { offset }] of arrays.entries()) {
      const a = all[k]![1];
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

/** readSegmentFile on libuv's thread pool: the main thread stays free (e.g. to parse the manifest meanwhile). */
export async function readSegmentFileAsync(file: string): Promise<SharedArrayBuffer> {
  const fh = await open(file, 'r');
  try {
    const { size } = await fh.stat();
    const sab = new SharedArrayBuffer(size);
    const u8 = new Uint8Array(sab);
    let got = 0;
    while (got < size) {
      const { bytesRead } = await fh.read(u8, got, Math.min(size - got, 1 << 30), got);
      if (bytesRead <= 0) throw new Error(`short read on ${file}`);
      got += bytesRead;
    }
    return sab;
  } finally {
    await fh.close();
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
  for (const name of [...ARRAYS, ...TABLES]) if (!m.arrays.some((a) => a.name === name)) throw new Error(`search index file lacks ${name}`);
  return { fingerprint: m.fingerprint, nPages: m.nPages };
}

/** Typed-array views over the SharedArrayBuffer (shared between threads when posted) plus pages and vocabulary. */
export function segmentFromBuffer(sab: SharedArrayBuffer): SegmentData {
  const m = parseMeta(sab);
  const b = Buffer.from(sab);
  const views: Partial<Record<ArrayName | TableName, unknown>> = {};
  for (const { name, type, offset, length } of m.arrays) {
    const at = m.dataStart + offset;
    if (type === 'i32') views[name] = new Int32Array(sab, at, length);
    else if (type === 'u32') views[name] = new Uint32Array(sab, at, length);
    else if (type === 'f32') views[name] = new Float32Array(sab, at, length);
    else if (type === 'u16') views[name] = new Uint16Array(sab, at, length);
    else views[name] = new Uint8Array(sab, at, length);
  }
  for (const name of [...ARRAYS, ...TABLES]) if (!views[name]) throw new Error(`search index file lacks ${name}`);
  const t = views as Record<TableName, Uint32Array & Int32Array & Uint8Array>;
  const strs = new Strings(t.strOff, t.strBytes);
  const V = (views.termStart as Int32Array).length - 1;
  const seg = { nPages: m.nPages, ...(views as Pick<SegmentData, ArrayName>) };
  return { ...seg, vocab: new TableVocab(strs, V), pages: new TablePages(strs, V, m.nPages, t) };
}
