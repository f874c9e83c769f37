// Client IP for rate limiting: the socket address, and X-Forwarded-For only as far
// as TRUST_PROXY allows.
//   false          ignore X-Forwarded-For (default; the gateway faces clients directly)
//   true           trust every hop: the left-most X-Forwarded-For address is the client
//   <n>            trust n proxies in front of the gateway: the n-th address from the right
//   <cidr,…>       trust peers in these addresses/ranges (e.g. `127.0.0.1,10.0.0.0/8`, also
//                  `loopback`, `private`): walk from the right, the first untrusted address is the client
import { BlockList, isIP } from 'node:net';

export type TrustProxy = false | true | { hops: number } | { list: BlockList; source: string };

const named: Record<string, [string, number, 'ipv4' | 'ipv6'][]> = {
  loopback: [
    ['127.0.0.0', 8, 'ipv4'],
    ['::1', 128, 'ipv6'],
  ],
  private: [
    ['10.0.0.0', 8, 'ipv4'],
    ['172.16.0.0', 12, 'ipv4'],
    ['192.168.0.0', 16, 'ipv4'],
    ['fc00::', 7, 'ipv6'],
  ],
  linklocal: [
    ['169.254.0.0', 16, 'ipv4'],
    ['fe80::', 10, 'ipv6'],
  ],
};

export function parseTrustProxy(value: string): TrustProxy {
  const v = value.trim().toLowerCase();
  if (v === '' || v === 'false' || v === '0') return false;
  if (v === 'true') return true;
  if (/^\d+$/.test(v)) return { hops: Number(v) };
  const list = new BlockList();
  for (const raw of v.split(',').map((s) => s.trim()).filter(Boolean)) {
    if (named[raw]) {
      for (const [addr, prefix, type] of named[raw]) list.addSubnet(addr, prefix, type);
      continue;
    }
    const [addr = '', prefixText] = raw.split('/');
    const family = isIP(addr);
    if (!family) throw new Error(`"${raw}" is not an IP address or CIDR range (use false, true, a hop count, or a list like 127.0.0.1,10.0.0.0/8)`);
    const type = family === 4 ? 'ipv4' : 'ipv6';
    const max = family === 4 ? 32 : 128;
    const prefix = prefixText === undefined ? max : Number(prefixText);
    if (!Number.isInteger(prefix) || prefix < 0 || prefix > max || (prefixText !== undefined && !/^\d+$/.test(prefixText))) {
      throw new Error(`"${raw}" has an invalid prefix length (0..${max})`);
    }
    list.addSubnet(addr, prefix, type);
  }
  return { list, source: value };
}

/** `::ffff:1.2.3.4` → `1.2.3.4`, so one client has one key whatever the socket family. */
export function normalizeIp(ip: string): string {
  return ip.startsWith('::ffff:') && ip.includes('.') ? ip.slice(7) : ip;
}

function trusted(list: BlockList, ip: string): boolean {
  const family = isIP(ip);
  if (!family) return false;
  return list.check(ip, family === 4 ? 'ipv4' : 'ipv6');
}

function forwardedList(header: string | null): string[] {
  if (!header) return [];
  return header
    .split(',')
    .map((s) => normalizeIp(s.trim()))
    .filter((s) => isIP(s) !== 0);
}

export function clientIp(trust: TrustProxy, socketAddress: string | undefined, forwardedFor: string | null): string {
  const peer = normalizeIp(socketAddress ?? 'unknown');
  if (trust === false) return peer;
  const chain = forwardedList(forwardedFor);
  if (chain.length === 0) return peer;
  if (trust === true) return chain[0]!;
  if ('hops' in trust) {
    // [client, proxy1, …, proxyN-1] + peer: with n trusted hops the client is n from the right.
    const all = [...chain, peer];
    return all[Math.max(0, all.length - 1 - trust.hops)]!;
  }
  if (!trusted(trust.list, peer)) return peer;
  for (let i = chain.length - 1; i >= 0; i--) if (!trusted(trust.list, chain[i]!)) return chain[i]!;
  return chain[0]!;
}
