// The corpus vocabulary, in rank order (rank 0 = most frequent). Function words
// lead, then real documentation words, then invented words for the long tail, so
// the text has the Zipf shape of real prose: a few words on every page, most words
// on a handful of pages.
import { Rng } from './random.ts';

export const functionWords = [
  'the', 'to', 'of', 'and', 'a', 'in', 'is', 'for', 'that', 'it', 'on', 'with', 'as', 'this', 'be', 'are', 'by',
  'or', 'from', 'an', 'can', 'when', 'you', 'your', 'if', 'not', 'each', 'which', 'at', 'all', 'will', 'more',
  'one', 'use', 'has', 'its', 'into', 'only', 'than', 'then',
] as const;

// Real words of software documentation, roughly most common first.
export const docWords = [
  'request', 'page', 'file', 'server', 'configuration', 'value', 'default', 'example', 'data', 'response', 'api',
  'user', 'client', 'build', 'error', 'set', 'run', 'name', 'option', 'content', 'key', 'search', 'version', 'path',
  'project', 'command', 'function', 'type', 'field', 'cache', 'index', 'query', 'route', 'header', 'token', 'service',
  'model', 'string', 'object', 'list', 'return', 'event', 'time', 'limit', 'module', 'package', 'result', 'status',
  'process', 'section', 'source', 'output', 'input', 'support', 'environment', 'variable', 'network', 'access',
  'message', 'deploy', 'update', 'create', 'delete', 'read', 'write', 'format', 'schema', 'database', 'storage',
  'log', 'test', 'release', 'policy', 'plugin', 'template', 'session', 'domain', 'endpoint', 'parameter', 'rule',
  'feature', 'instance', 'container', 'image', 'volume', 'cluster', 'node', 'worker', 'thread', 'queue', 'job',
  'task', 'agent', 'skill', 'hook', 'composition', 'tool', 'prompt', 'context', 'memory', 'stream', 'buffer',
  'socket', 'port', 'host', 'proxy', 'gateway', 'router', 'handler', 'middleware', 'controller', 'component',
  'layout', 'theme', 'style', 'script', 'asset', 'bundle', 'compile', 'runtime', 'browser', 'mobile', 'desktop',
  'account', 'permission', 'role', 'secret', 'certificate', 'encryption', 'signature', 'hash', 'digest', 'header',
  'cookie', 'redirect', 'upload', 'download', 'import', 'export', 'migration', 'backup', 'restore', 'snapshot',
  'metric', 'trace', 'alert', 'monitor', 'dashboard', 'report', 'filter', 'sort', 'page', 'cursor', 'offset',
  'batch', 'retry', 'timeout', 'backoff', 'fallback', 'latency', 'throughput', 'bandwidth', 'quota', 'budget',
  'billing', 'invoice', 'subscription', 'webhook', 'callback', 'promise', 'async', 'await', 'thread', 'lock',
  'mutex', 'transaction', 'commit', 'rollback', 'branch', 'merge', 'review', 'pipeline', 'artifact', 'registry',
  'dependency', 'manifest', 'lockfile', 'workspace', 'monorepo', 'scaffold', 'generator', 'parser', 'renderer',
  'serializer', 'validator', 'adapter', 'connector', 'provider', 'consumer', 'producer', 'subscriber', 'publisher',
  'topic', 'partition', 'replica', 'shard', 'leader', 'follower', 'consensus', 'election', 'heartbeat', 'lease',
  'ttl', 'eviction', 'compaction', 'vacuum', 'checkpoint', 'journal', 'ledger', 'audit', 'compliance', 'region',
  'zone', 'edge', 'origin', 'cdn', 'dns', 'tls', 'http', 'websocket', 'grpc', 'graphql', 'rest', 'json', 'yaml',
  'markdown', 'html', 'css', 'javascript', 'typescript', 'python', 'rust', 'golang', 'docker', 'kubernetes',
  'helm', 'terraform', 'ansible', 'nginx', 'redis', 'postgres', 'sqlite', 'kafka', 'rabbitmq', 'elasticsearch',
  'embedding', 'vector', 'similarity', 'ranking', 'relevance', 'tokenizer', 'stemming', 'synonym', 'fuzzy',
  'highlight', 'excerpt', 'snippet', 'anchor', 'heading', 'sidebar', 'navigation', 'breadcrumb', 'footer',
  'accessibility', 'contrast', 'keyboard', 'focus', 'screen', 'reader', 'locale', 'translation', 'timezone',
  'calendar', 'schedule', 'cron', 'interval', 'debounce', 'throttle', 'idempotent', 'deterministic', 'stateless',
  'stateful', 'concurrency', 'parallel', 'sequential', 'streaming', 'chunk', 'frame', 'payload', 'envelope',
  'problem', 'detail', 'instance', 'title', 'description', 'summary', 'answer', 'citation', 'grounding',
] as const;

const onsets = ['b', 'c', 'd', 'f', 'g', 'k', 'l', 'm', 'n', 'p', 'r', 't', 'v', 'z', 'br', 'cr', 'dr', 'gl', 'pl', 'st', 'tr', 'qu', 'sh', 'th', 'ch', 'fl', 'gr', 'sk', 'sp', 'vr'];
const vowels = ['a', 'e', 'i', 'o', 'u', 'ai', 'ou', 'ei', 'y', 'oa'];
const codas = ['', '', '', 'n', 'r', 'l', 'x', 'm', 'k', 't', 'nd', 'rk', 'lt', 'mp', 'st', 'v'];

function inventWord(rng: Rng): string {
  const syllables = rng.int(2, 3);
  let w = '';
  for (let i = 0; i < syllables; i++) w += rng.pick(onsets) + rng.pick(vowels) + (i === syllables - 1 ? rng.pick(codas) : '');
  return w;
}

export interface Vocabulary {
  /** Word types in rank order. */
  words: string[];
  /** Rank of the first word that is not a function word. */
  contentStart: number;
  /** Words used on only a handful of pages each (identifiers, product names, error codes). */
  rare: string[];
}

/** A deterministic vocabulary: `size` ranked word types plus `rareCount` rare ones, none shared. */
export function buildVocabulary(seed: string, size: number, rareCount: number): Vocabulary {
  const rng = new Rng(`${seed}:vocabulary`);
  const seen = new Set<string>();
  const words: string[] = [];
  const add = (w: string, into: string[]) => {
    if (seen.has(w)) return false;
    seen.add(w);
    into.push(w);
    return true;
  };
  for (const w of functionWords) add(w, words);
  const contentStart = words.length;
  for (const w of docWords) add(w, words);
  // Invented words interleave with the real ones beyond the head, as jargon does.
  while (words.length < size) add(inventWord(rng), words);
  const rare: string[] = [];
  while (rare.length < rareCount) {
    const w = inventWord(rng) + rng.pick(['ix', 'ex', 'ar', 'on', 'um', 'ia']);
    if (w.length >= 6) add(w, rare);
  }
  return { words, contentStart, rare };
}
