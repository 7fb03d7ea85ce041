import ipaddr from 'ipaddr.js';
import { normalCidr } from '../cidr.js';

/** How a sandboxed program may use the network. */
export type NetworkMode = 'isolated' | 'egress';

/**
 * IPv4 ranges a sandboxed program never reaches in `egress` mode unless allow-listed: this
 * host's and private networks, link-local (cloud metadata at 169.254.169.254), shared address
 * space, documentation and benchmarking ranges, multicast and reserved.
 */
const BLOCKED_IPV4 = [
  '0.0.0.0/8',
  '10.0.0.0/8',
  '100.64.0.0/10',
  '127.0.0.0/8',
  '169.254.0.0/16',
  '172.16.0.0/12',
  '192.0.0.0/24',
  '192.0.2.0/24',
  '192.88.99.0/24',
  '192.168.0.0/16',
  '198.18.0.0/15',
  '198.51.100.0/24',
  '203.0.113.0/24',
  '224.0.0.0/4',
  '240.0.0.0/4',
] as const;

/** The user-mode network's own addresses (slirp4netns defaults): its DNS forwarder is the one inside address a program may reach. */
export const USER_NET = { cidr: '10.0.2.0/24', dns: '10.0.2.3' } as const;

/** The CIDRs of `list` (one family, normal form) without those another one covers: nftables refuses overlapping intervals in a set. */
function withoutCovered(list: readonly string[]): string[] {
  const unique = [...new Set(list)].map((c) => ({ c, range: ipaddr.parseCIDR(c) }));
  const covered = (i: number) =>
    unique.some((o, j) => j !== i && o.range[1] < unique[i].range[1] && unique[i].range[0].match(o.range));
  return unique.filter((_, i) => !covered(i)).map(({ c }) => c);
}

/**
 * The nftables rules of a sandbox's network namespace in `egress` mode, applied before the
 * sandboxed program starts and out of its reach (it has no capabilities there): its own
 * loopback and the user-mode network's DNS forwarder are allowed, then the allow-listed
 * destinations, then every blocked range and the host's own addresses are refused at once; IPv6
 * leaves only through loopback (the user-mode network has none). Every address is checked
 * before it is written, so nothing but addresses reaches the rule text.
 */
export function egressRules(allowed: readonly string[], hostAddresses: readonly string[]): string {
  const allow = allowed.map(normalCidr).filter((c): c is NonNullable<typeof c> => c !== null);
  const allowV4 = withoutCovered(allow.filter((c) => c.family === 'ipv4').map((c) => c.cidr));
  const allowV6 = withoutCovered(allow.filter((c) => c.family === 'ipv6').map((c) => c.cidr));
  const hosts = hostAddresses
    .map((a) => normalCidr(`${a}/32`))
    .filter((c) => c?.family === 'ipv4')
    .map((c) => c!.cidr);
  const blocked = withoutCovered([...BLOCKED_IPV4, ...hosts]);
  const lines = [
    'table inet rls_sandbox {',
    '  chain output {',
    '    type filter hook output priority 0; policy accept;',
    '    oifname "lo" accept',
    `    ip daddr ${USER_NET.dns} udp dport 53 accept`,
    `    ip daddr ${USER_NET.dns} tcp dport 53 accept`,
    ...(allowV4.length ? [`    ip daddr { ${allowV4.join(', ')} } accept`] : []),
    ...(allowV6.length ? [`    ip6 daddr { ${allowV6.join(', ')} } accept`] : []),
    `    ip daddr { ${blocked.join(', ')} } reject with icmpx type admin-prohibited`,
    '    meta nfproto ipv6 reject with icmpx type admin-prohibited',
    '  }',
    '}',
  ];
  return lines.join('\n') + '\n';
}
