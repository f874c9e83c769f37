// The bench's machine bound: a bare node:http server that answers the search mix with
// the gateway's own recorded answers, straight from memory — no routing, no rate
// limiter, no search, no cache, only the headers the mix reads. Whatever it cannot
// reach on this machine, with these bytes and this load generator on the same cores,
// no gateway can. Started by scripts/bench.ts (with scripts/lib/bench/metrics-hook.ts
// preloaded, for the same event-loop and memory measurements):
//
//   node scripts/lib/bench/bare-server.ts <answers file> <port>
import { createServer } from 'node:http';
import { readAnswers } from './answers.ts';

const [file, port] = process.argv.slice(2);
if (!file || !port) throw new Error('usage: bare-server.ts <answers file> <port>');
const answers = readAnswers(file);
const health = Buffer.from('{"status":"ok","service":"docs-read-api","version":"bare"}');
const notFound = Buffer.from('{"title":"Not found","status":404}');

createServer((req, res) => {
  if (req.url === '/api/health') {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': health.length });
    res.end(health);
    return;
  }
  const a = answers.get(req.url ?? '');
  if (!a) {
    res.writeHead(404, { 'content-type': 'application/json', 'content-length': notFound.length });
    res.end(notFound);
    return;
  }
  res.writeHead(200, a.headers);
  res.end(a.body);
}).listen(Number(port), '127.0.0.1');
