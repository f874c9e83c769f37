/**
 * On-disk form of one index segment. Loading reads its hot part straight into a SharedArrayBuffer (shared by every
 * query worker) and keeps the file open for the cold arrays, read on demand (cold-array.ts).
 * Layout: "ADSIDX" + u16 format version, u32 header length, header JSON (array table), then the typed arrays, each
 * 8-byte aligned, the cold ones last. Pages and vocabulary are binary too (a string table + anchor columns), decoded
 * on demand: a worker's install parses no JSON beyond the header and builds no per-page objects.
 */
import { chmodSync, close, closeSync, fstatSync, open, openSync, read, readSync, renameSync, writeSync } from 'node:fs';
import { promisify } from 'node:util';
import { type ColdArray, type ColdElements, inFile } from './cold-array.ts';
import type { AnchorInfo, List, PageInfo, PageList, SegmentData } from './segment.ts';
import { BoundedMemo } from '../lru.ts';

/** The file format; a file of another version is not read (the index is rebuilt). */
export const INDEX_FORMAT_VERSION = 13;
const MAGIC = 'ADSIDX';

type ArrayName = 'bodyPostingsStart' | 'bodyPostingPages' | 'bodyPostingFrequencies' | 'titlePostingsStart' | 'titlePostingPages'
  | 'descriptionPostingsStart' | 'descriptionPostingPages'
  | 'headingPostingsStart' | 'headingPostingPages'
  | 'pageLengths' | 'pageTypes' | 'pageFirstWord' | 'wordCheckpoints' | 'pageFirstByte' | 'zeroWidthSeparated'
  | 'pageFirstSection' | 'sectionPostingsStart' | 'staticHitOffsets' | 'staticHitBytes' | 'staticHitWords' | 'pagesByUrl'
  | 'typoHashes' | 'typoTermIds';
type ColdName = 'texts' | 'sectionPostingSections' | 'sectionPostingCounts';
/** The page table and vocabulary: strings (vocab j: j; page i: V + 3i + url|title|section; anchor a: V + 3n + 2a + id|text). */
type TableName = 'stringOffsets' | 'stringBytes' | 'anchorsStart' | 'anchorPositions' | 'anchorWordCounts';
const TABLES: TableName[] = ['stringOffsets', 'stringBytes', 'anchorsStart', 'anchorPositions', 'anchorWordCounts'];
const ARRAYS: ArrayName[] = [
  'bodyPostingsStart', 'bodyPostingPages', 'bodyPostingFrequencies', 'titlePostingsStart', 'titlePostingPages',
  'descriptionPostingsStart', 'descriptionPostingPages', 'headingPostingsStart', 'headingPostingPages',
  'pageLengths', 'pageTypes', 'pageFirstWord', 'wordCheckpoints', 'pageFirstByte', 'zeroWidthSeparated',
  'pageFirstSection', 'sectionPostingsStart', 'staticHitOffsets', 'staticHitBytes', 'staticHitWords', 'pagesByUrl',
  'typoHashes', 'typoTermIds',
];
/** Written after everything else: a loaded segment reads them from the file when a query needs them. */
const COLD: ColdName[] = ['texts', 'sectionPostingSections', 'sectionPostingCounts'];
const ALL_NAMES: (ArrayName | TableName | ColdName)[] = [...ARRAYS, ...TABLES, ...COLD];

function encodeTables(seg: SegmentData): Record<TableName, ArrayBufferView> {
  const n = seg.pageCount;
  const V = seg.terms.length;
  const strs: string[] = [];
  for (let j = 0; j < V; j++) strs.push(seg.terms.at(j)!);
  let nA = 0;
  for (let i = 0; i < n; i++) {
    const p = seg.pages.at(i)!;
    strs.push(p.url, p.title, p.section);
    nA += p.anchors.length;
  }
  const anchorsStart = new Uint32Array(n + 1);
  const anchorPositions = new Int32Array(nA);
  const anchorWordCounts = new Uint32Array(nA);
  let a = 0;
  for (let i = 0; i < n; i++) {
    anchorsStart[i] = a;
    for (const x of seg.pages.at(i)!.anchors) {
      strs.push(x.id, x.text);
      anchorPositions[a] = x.loc;
      anchorWordCounts[a++] = x.words;
    }
  }
  anchorsStart[n] = a;
  const bufs = strs.map((x) => Buffer.from(x, 'utf8'));
  const stringOffsets = new Uint32Array(bufs.length + 1);
  for (let k = 0; k < bufs.length; k++) stringOffsets[k + 1] = stringOffsets[k]! + bufs[k]!.length;
  return { stringOffsets, stringBytes: Buffer.concat(bufs), anchorsStart, anchorPositions, anchorWordCounts };
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

/** The page table's anchor arrays (encodeTables). */
type AnchorTables = Record<'anchorsStart' | 'anchorPositions' | 'anchorWordCounts', Uint32Array | Int32Array>;

class TablePages implements PageList {
  readonly length: number;
  private readonly s: Strings;
  private readonly V: number;
  private readonly t: AnchorTables;
  /** Recently decoded pages (the top hits of recent queries). */
  private readonly memo = new BoundedMemo<number, PageInfo>(1024);
  constructor(s: Strings, V: number, n: number, t: AnchorTables) {
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
      const { anchorsStart, anchorPositions, anchorWordCounts } = this.t;
      const anchors: AnchorInfo[] = [];
      const s0 = this.V + 3 * this.length;
      for (let a = anchorsStart[i]!, end = anchorsStart[i + 1]!; a < end; a++) {
        anchors.push({ loc: anchorPositions[a]!, id: this.s.get(s0 + 2 * a), text: this.s.get(s0 + 2 * a + 1), words: anchorWordCounts[a]! });
      }
      p = this.memo.remember(i, { url: this.url(i), title: this.title(i), section: this.s.get(this.V + 3 * i + 2), anchors });
    }
    return p;
  }
}
type ElemType = 'i32' | 'u32' | 'f32' | 'u16' | 'u8';
/** Element type of an array as built (posting pages are u16 or i32 depending on the segment's page count). */
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
  pageCount: number;
  size: number;
  arrays: { name: ArrayName | TableName | ColdName; type: string; offset: number; length: number }[];
}

const align8 = (n: number) => (n + 7) & ~7;
const PREFIX = 16; // magic(6) version(u16) metaLen(u32) dataLen(u32)

/** Writes the segment atomically (temp file + rename); mode 0600 unless told (0644 for a build-output index). */
export function writeSegmentFile(file: string, seg: SegmentData, fingerprint: string, mode = 0o600): void {
  const arrays: Meta['arrays'] = [];
  let off = 0;
  const tables = encodeTables(seg);
  const cold = (a: ColdArray<ColdElements>, name: ColdName): ArrayBufferView => {
    if (!a.memory) throw new Error(`search index: ${name} of a loaded segment is not in memory (write a built one)`);
    return a.memory;
  };
  const all: (readonly [ArrayName | TableName | ColdName, ArrayBufferView])[] = [
    ...ARRAYS.map((name) => [name, seg[name]] as const),
    ...TABLES.map((name) => [name, tables[name]] as const),
    ...COLD.map((name) => [name, cold(seg[name], name)] as const),
  ];
  for (const [name, a] of all) {
    arrays.push({ name, type: typeOf(a), offset: off, length: (a as Uint8Array).length });
    off = align8(off + a.byteLength);
  }
  const data = Buffer.alloc(0);
  // size depends on the meta length: compute with a placeholder, then fix (size has a fixed width)
  const metaOf = (size: number) => Buffer.from(JSON.stringify({ version: INDEX_FORMAT_VERSION, fingerprint, pageCount: seg.pageCount, size: String(size).padStart(15, '0'), arrays }), 'utf8');
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

/**
 * A loaded segment: its hot part (header and every array but the cold ones) in a SharedArrayBuffer, and the segment
 * file, open, for the cold arrays. Both can be posted to a worker thread (a file descriptor is the process's).
 */
export interface SegmentFile {
  buffer: SharedArrayBuffer;
  fd: number;
  /** The file's size (the header says what it must be). */
  size: number;
}

const SIZE_BYTES: Record<string, number> = { i32: 4, u32: 4, f32: 4, u16: 2, u8: 1 };

/** The header, from the file's first bytes: where the data starts and where the hot part ends. */
function parseHeader(head: Buffer, fileSize: number): Meta & { dataStart: number; hotEnd: number } {
  if (head.length < PREFIX || head.toString('latin1', 0, 6) !== MAGIC) throw new Error('not a search index file');
  const version = head.readUInt16LE(6);
  if (version !== INDEX_FORMAT_VERSION) throw new Error(`search index file format ${version} (expected ${INDEX_FORMAT_VERSION})`);
  const metaLen = head.readUInt32LE(8);
  const dataLen = head.readUInt32LE(12);
  if (PREFIX + metaLen + dataLen > Math.min(head.length, fileSize)) throw new Error('search index file is truncated');
  const raw = JSON.parse(head.toString('utf8', PREFIX, PREFIX + metaLen)) as Omit<Meta, 'size'> & { size: string };
  const meta = { ...raw, size: Number(raw.size) };
  if (meta.size !== fileSize) throw new Error(`search index file size ${fileSize} (expected ${meta.size})`);
  for (const name of ALL_NAMES) if (!meta.arrays.some((a) => a.name === name)) throw new Error(`search index file lacks ${name}`);
  const dataStart = align8(PREFIX + metaLen + dataLen);
  let hotEnd = meta.size;
  for (const a of meta.arrays) if ((COLD as string[]).includes(a.name)) hotEnd = Math.min(hotEnd, dataStart + a.offset);
  for (const a of meta.arrays) {
    const end = dataStart + a.offset + a.length * (SIZE_BYTES[a.type] ?? Infinity);
    if (!(end <= ((COLD as string[]).includes(a.name) ? meta.size : hotEnd))) throw new Error(`search index file: ${a.name} out of bounds`);
  }
  return { ...meta, dataStart, hotEnd };
}

/** Header bytes to read first (the array table is ≈2 KB): enough in one read, else a second one. */
const HEAD_GUESS = 64 * 1024;

/** How many bytes the header takes, from what was read of the file so far (`got`): at most `size`. */
function headLength(got: Buffer, size: number): number {
  return got.length < PREFIX ? got.length : Math.min(size, PREFIX + got.readUInt32LE(8));
}

function readFully(fd: number, into: Uint8Array, position: number): void {
  let got = 0;
  while (got < into.length) {
    const n = readSync(fd, into, got, into.length - got, position + got);
    if (n <= 0) throw new Error('search index file: short read');
    got += n;
  }
}

/** Opens a segment file: its hot part read into a new SharedArrayBuffer, the file kept open (closeSegmentFile). */
export function openSegmentFile(file: string): SegmentFile {
  const fd = openSync(file, 'r');
  try {
    const size = fstatSync(fd).size;
    let head = Buffer.alloc(Math.min(size, HEAD_GUESS));
    readFully(fd, head, 0);
    if (headLength(head, size) > head.length) readFully(fd, (head = Buffer.alloc(headLength(head, size))), 0);
    const buffer = new SharedArrayBuffer(parseHeader(head, size).hotEnd);
    readFully(fd, new Uint8Array(buffer), 0);
    return { buffer, fd, size };
  } catch (err) {
    closeSync(fd);
    throw err;
  }
}

const openAsync = promisify(open);
const readAsync = promisify(read);
const closeAsync = promisify(close);

async function readFullyAsync(fd: number, into: Uint8Array, position: number): Promise<void> {
  let got = 0;
  while (got < into.length) {
    const { bytesRead } = await readAsync(fd, into, got, Math.min(into.length - got, 1 << 30), position + got);
    if (bytesRead <= 0) throw new Error('search index file: short read');
    got += bytesRead;
  }
}

/** openSegmentFile on libuv's thread pool: the main thread stays free (e.g. to parse the manifest meanwhile). */
export async function openSegmentFileAsync(file: string): Promise<SegmentFile> {
  const fd = await openAsync(file, 'r');
  try {
    const size = fstatSync(fd).size;
    let head = Buffer.alloc(Math.min(size, HEAD_GUESS));
    await readFullyAsync(fd, head, 0);
    if (headLength(head, size) > head.length) await readFullyAsync(fd, (head = Buffer.alloc(headLength(head, size))), 0);
    const buffer = new SharedArrayBuffer(parseHeader(head, size).hotEnd);
    await readFullyAsync(fd, new Uint8Array(buffer), 0);
    return { buffer, fd, size };
  } catch (err) {
    await closeAsync(fd).catch(() => {});
    throw err;
  }
}

/** Closes the segment's file (its cold arrays are unreadable after). Idempotent per file object. */
export function closeSegmentFile(f: SegmentFile): void {
  if (f.fd < 0) return;
  try {
    closeSync(f.fd);
  } catch {
    /* already closed */
  }
  f.fd = -1;
}

function headerOf(f: SegmentFile): ReturnType<typeof parseHeader> {
  return parseHeader(Buffer.from(f.buffer), f.size);
}

/** Validates a loaded segment cheaply (prefix + small header JSON); returns its fingerprint and page count. */
export function checkSegmentFile(f: SegmentFile): { fingerprint: string; pageCount: number } {
  const m = headerOf(f);
  if (m.hotEnd !== f.buffer.byteLength) throw new Error('search index file: hot part of unexpected length');
  return { fingerprint: m.fingerprint, pageCount: m.pageCount };
}

/** Typed-array views over the SharedArrayBuffer (shared between threads when posted), pages, vocabulary, cold arrays. */
export function segmentFromFile(f: SegmentFile): SegmentData {
  const m = headerOf(f);
  const sab = f.buffer;
  const views: Partial<Record<ArrayName | TableName | ColdName, unknown>> = {};
  for (const { name, type, offset, length } of m.arrays) {
    const at = m.dataStart + offset;
    if ((COLD as string[]).includes(name)) views[name] = inFile(f.fd, at, length, SIZE_BYTES[type]!);
    else if (type === 'i32') views[name] = new Int32Array(sab, at, length);
    else if (type === 'u32') views[name] = new Uint32Array(sab, at, length);
    else if (type === 'f32') views[name] = new Float32Array(sab, at, length);
    else if (type === 'u16') views[name] = new Uint16Array(sab, at, length);
    else views[name] = new Uint8Array(sab, at, length);
  }
  const t = views as Record<TableName, Uint32Array & Int32Array & Uint8Array>;
  const strs = new Strings(t.stringOffsets, t.stringBytes);
  const V = (views.bodyPostingsStart as Int32Array).length - 1;
  const seg = { pageCount: m.pageCount, ...(views as Pick<SegmentData, ArrayName | ColdName>) };
  return { ...seg, terms: new TableVocab(strs, V), pages: new TablePages(strs, V, m.pageCount, t) };
}
