import type { LookupAddress } from 'node:dns';
import { lookup } from 'node:dns/promises';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Webhook target safety (decision 27): HTTPS only, and never a private, loopback, link-local or metadata address,
 * checked on the addresses the host resolves to at delivery time, which are then the only ones connected to.
 */

export type AddressKind =
  | 'public' | 'loopback' | 'private' | 'link-local' | 'cloud-metadata' | 'unspecified' | 'multicast' | 'carrier-grade-nat'
  | 'reserved';

export type TargetCheck = { ok: true } | { ok: false; reason: string };

export interface VettedAddress {
  address: string;
  family: 4 | 6;
}

/** Every address a host resolved to, each one checked; never empty. */
export type VettedAddresses = readonly [VettedAddress, ...VettedAddress[]];

/** Resolves a host name to all its addresses; a seam so tests can play a rebinding DNS server. */
export type HostLookup = (hostname: string) => Promise<readonly LookupAddress[]>;

/** A target the service refuses to connect to; the message says why and is safe to show to the webhook owner. */
export class TargetRefused extends Error {
  override readonly name = 'TargetRefused';
}

/** ipaddr.js's range names, mapped to ours; a name not listed (a special-purpose block) is `reserved`. */
const KINDS: Readonly<Record<string, AddressKind>> = {
  unicast: 'public', unspecified: 'unspecified', loopback: 'loopback', private: 'private', uniqueLocal: 'private',
  deprecatedSiteLocal: 'private', linkLocal: 'link-local', multicast: 'multicast', carrierGradeNat: 'carrier-grade-nat',
};

// The metadata endpoints sit inside ranges ipaddr.js already names (link-local, unique local): they are checked first.
const METADATA = ['169.254.169.254', 'fd00:ec2::254'].map((text) => ipaddr.parse(text).toNormalizedString());

const LABELS: Record<Exclude<AddressKind, 'public'>, string> = {
  'loopback': 'a loopback address', 'private': 'a private address', 'link-local': 'a link-local address',
  'cloud-metadata': 'a cloud metadata address', 'unspecified': 'an unspecified address', 'multicast': 'a multicast address',
  'carrier-grade-nat': 'a carrier-grade NAT address', 'reserved': 'a reserved or non-routable address',
};

/** The IPv4 address made of two 16-bit parts of an IPv6 address. */
function ipv4Of(high: number, low: number): ipaddr.IPv4 {
  return ipaddr.fromByteArray([high >> 8, high & 0xff, low >> 8, low & 0xff]) as ipaddr.IPv4;
}

/**
 * The IPv4 addresses a packet to this IPv6 address is really delivered to, when it embeds any: mapped and translated
 * (SIIT), the NAT64 well-known prefix, 6to4, and Teredo (its server and its client, whose address is stored inverted).
 * Each must be as safe as the IPv6 address itself would have to be.
 */
function embeddedIpv4(address: ipaddr.IPv6, range: string): ipaddr.IPv4[] {
  const parts = address.parts.map((part) => part & 0xffff);
  const at = (index: number): number => parts[index] ?? 0;
  switch (range) {
    case 'ipv4Mapped': case 'rfc6145': return [ipv4Of(at(6), at(7))];
    case 'rfc6052': return at(2) === 0 ? [ipv4Of(at(6), at(7))] : []; // 64:ff9b:1::/48 (local-use NAT64) is private below
    case '6to4': return [ipv4Of(at(1), at(2))];
    case 'teredo': return [ipv4Of(at(2), at(3)), ipv4Of(~at(6) & 0xffff, ~at(7) & 0xffff)];
    default: return [];
  }
}

function classifyIpv4(address: ipaddr.IPv4): AddressKind {
  if (METADATA.includes(address.toNormalizedString())) return 'cloud-metadata';
  return KINDS[address.range()] ?? 'reserved';
}

function classifyIpv6(address: ipaddr.IPv6): AddressKind {
  if (METADATA.includes(address.toNormalizedString())) return 'cloud-metadata';
  const range = address.range();
  const embedded = embeddedIpv4(address, range);
  if (embedded.length > 0) return embedded.map(classifyIpv4).find((kind) => kind !== 'public') ?? 'public';
  if (range === 'rfc6052') return 'private';
  // The deprecated IPv4-compatible form (::a.b.c.d) is routed nowhere today.
  if (range === 'unicast' && address.parts.slice(0, 6).every((part) => part === 0)) return 'reserved';
  return KINDS[range] ?? 'reserved';
}

/** `::1.2.3.4` as `::102:304`: ipaddr.js reads any dotted tail as IPv4-mapped, whatever the groups before it say. */
function hexTail(address: string): string {
  return address.replace(/(\d+)\.(\d+)\.(\d+)\.(\d+)$/, (_, a: string, b: string, c: string, d: string) =>
    `${((Number(a) << 8) | Number(b)).toString(16)}:${((Number(c) << 8) | Number(d)).toString(16)}`);
}

/**
 * What kind of address this is, by ipaddr.js's table of special-purpose ranges; anything not an IP address in
 * canonical form (as a resolver or the URL parser gives it) is `reserved` (never connectable).
 */
export function classifyAddress(text: string): AddressKind {
  const address = text.replace(/%.*$/, ''); // a zone id (fe80::1%eth0) names an interface, not part of the address
  const family = isIP(address);
  if (family === 4) return classifyIpv4(ipaddr.IPv4.parse(address));
  if (family === 6) return classifyIpv6(ipaddr.IPv6.parse(hexTail(address)));
  return 'reserved';
}

/** Why this address may not be a webhook target, or null when it may. */
export function addressRefusal(address: string, options: { allowLoopback: boolean }): string | null {
  const kind = classifyAddress(address);
  if (kind === 'public' || (kind === 'loopback' && options.allowLoopback)) return null;
  return `${address} is ${LABELS[kind]}`;
}

function bareHost(hostname: string): string {
  return hostname.replace(/^\[(.*)\]$/, '$1');
}

function hostName(host: string): string {
  return host.toLowerCase().replace(/\.$/, '');
}

function isLocalhostName(host: string): boolean {
  return hostName(host) === 'localhost' || hostName(host).endsWith('.localhost');
}

/** Plain http is allowed to these only: the name `localhost` itself, 127.0.0.0/8 and ::1. */
function isLoopbackHost(host: string): boolean {
  return hostName(host) === 'localhost' || classifyAddress(host) === 'loopback';
}

/** The creation-time check (400 with the reason): syntax only, no DNS. */
export function checkTargetUrl(url: string, options: { allowLoopbackHttp: boolean }): TargetCheck {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { ok: false, reason: 'the webhook URL is not a valid absolute URL' };
  }
  const host = bareHost(parsed.hostname);
  if (parsed.protocol === 'http:') {
    if (!options.allowLoopbackHttp || !isLoopbackHost(host)) {
      return { ok: false, reason: 'the webhook URL must use https (plain http only to a loopback host in local mode)' };
    }
  } else if (parsed.protocol !== 'https:') {
    return { ok: false, reason: `the webhook URL must use https, not ${parsed.protocol.replace(/:$/, '')}` };
  }
  if (parsed.username !== '' || parsed.password !== '') {
    return { ok: false, reason: 'the webhook URL must not contain credentials' };
  }
  if (url.includes('#')) return { ok: false, reason: 'the webhook URL must not contain a fragment' };
  return checkLiteralHost(host, options.allowLoopbackHttp);
}

/** Literal addresses and localhost names are refused at creation already, not only at delivery. */
function checkLiteralHost(host: string, allowLoopback: boolean): TargetCheck {
  if (isLocalhostName(host) && !allowLoopback) return { ok: false, reason: `the webhook host ${host} is a loopback name` };
  const refusal = isIP(host) === 0 ? null : addressRefusal(host, { allowLoopback });
  return refusal === null ? { ok: true } : { ok: false, reason: `the webhook host ${refusal}` };
}

const systemLookup: HostLookup = (hostname) => lookup(hostname, { all: true });

/**
 * Resolves the host and refuses it if ANY of its addresses is unsafe (an attacker controls which one a client
 * would pick). Returns the address to connect to; pass it to `pinnedLookup` so no second resolution happens.
 */
export async function resolveSafeAddress(
  hostname: string,
  options: { allowLoopback: boolean; lookup?: HostLookup },
): Promise<VettedAddress> {
  const [first] = await resolveSafeAddresses(hostname, options);
  return first;
}

/** All the host's addresses, every one vetted, in resolver order (never empty). */
export async function resolveSafeAddresses(
  hostname: string,
  options: { allowLoopback: boolean; lookup?: HostLookup },
): Promise<VettedAddresses> {
  const host = bareHost(hostname);
  const literal = isIP(host);
  const candidates = literal === 0 ? await (options.lookup ?? systemLookup)(host) : [{ address: host, family: literal }];
  const vetted = candidates.map(({ address }): VettedAddress => {
    const refusal = addressRefusal(address, options);
    if (refusal !== null) throw new TargetRefused(host === address ? refusal : `${host} resolves to ${refusal}`);
    return { address, family: isIP(address) === 6 ? 6 : 4 };
  });
  const [first, ...rest] = vetted;
  if (!first) throw new TargetRefused(`${host} resolves to no address`);
  return [first, ...rest];
}

/**
 * A `lookup` for http(s).request that answers with vetted addresses only, so the connection goes where the
 * check looked (no DNS rebinding between check and connect). Node 20 asks with `all: true` (happy eyeballs),
 * and then gets every vetted address, so `localhost` -> [::1, 127.0.0.1] still reaches a receiver on either.
 */
export function pinnedLookup(vetted: VettedAddress | VettedAddresses): LookupFunction {
  const addresses: VettedAddresses = 'address' in vetted ? [vetted] : vetted;
  const [first] = addresses;
  return (_hostname, options, callback) => {
    process.nextTick(() => {
      if (options.all === true) callback(null, addresses.map(({ address, family }) => ({ address, family })));
      else callback(null, first.address, first.family);
    });
  };
}
