import ipaddr from 'ipaddr.js';

/** A CIDR in its normal form, or null when it is not one. */
export function normalCidr(text: string): { family: 'ipv4' | 'ipv6'; cidr: string } | null {
  try {
    const [addr, bits] = ipaddr.parseCIDR(text.trim());
    const network =
      addr.kind() === 'ipv4'
        ? ipaddr.IPv4.networkAddressFromCIDR(text.trim())
        : ipaddr.IPv6.networkAddressFromCIDR(text.trim());
    return { family: addr.kind(), cidr: `${network.toString()}/${bits}` };
  } catch {
    return null;
  }
}
