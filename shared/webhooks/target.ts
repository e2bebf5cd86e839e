import type { LookupAddress } from 'node:dns';
import { lookup } from 'node:dns/promises';
import { isIP, type LookupFunction } from 'node:net';

/**
 * Webhook target safety (DESIGN 5): HTTPS only, and never a private, loopback, link-local or metadata address,
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

interface Range {
  bits: 32 | 128;
  base: bigint;
  length: number;
  kind: Exclude<AddressKind, 'public'>;
}

// First match wins, so the narrow ranges (metadata) come before the blocks that contain them.
const RANGES: readonly Range[] = ([
  ['169.254.169.254/32', 'cloud-metadata'], ['0.0.0.0/8', 'unspecified'], ['10.0.0.0/8', 'private'],
  ['100.64.0.0/10', 'carrier-grade-nat'], ['127.0.0.0/8', 'loopback'], ['169.254.0.0/16', 'link-local'],
  ['172.16.0.0/12', 'private'], ['192.0.0.0/24', 'reserved'], ['192.0.2.0/24', 'reserved'], ['192.168.0.0/16', 'private'],
  ['198.18.0.0/15', 'reserved'], ['198.51.100.0/24', 'reserved'], ['203.0.113.0/24', 'reserved'],
  ['224.0.0.0/4', 'multicast'], ['240.0.0.0/4', 'reserved'],
  ['::/128', 'unspecified'], ['::1/128', 'loopback'], ['fd00:ec2::254/128', 'cloud-metadata'],
  ['::/96', 'reserved'], ['64:ff9b:1::/48', 'private'], ['100::/64', 'reserved'], ['2001::/32', 'reserved'],
  ['2001:db8::/32', 'reserved'], ['fc00::/7', 'private'], ['fe80::/10', 'link-local'], ['fec0::/10', 'private'],
  ['ff00::/8', 'multicast'],
] as const).map(([cidr, kind]) => parseRange(cidr, kind));

// IPv6 forms that carry an IPv4 address the packet really goes to: mapped, NAT64 well-known prefix, 6to4.
const EMBEDDING: readonly { range: Range; shift: bigint }[] = [
  { range: parseRange('::ffff:0:0/96', 'reserved'), shift: 0n },
  { range: parseRange('64:ff9b::/96', 'reserved'), shift: 0n },
  { range: parseRange('2002::/16', 'reserved'), shift: 80n },
];

const LABELS: Record<Exclude<AddressKind, 'public'>, string> = {
  'loopback': 'a loopback address', 'private': 'a private address', 'link-local': 'a link-local address',
  'cloud-metadata': 'a cloud metadata address', 'unspecified': 'an unspecified address', 'multicast': 'a multicast address',
  'carrier-grade-nat': 'a carrier-grade NAT address', 'reserved': 'a reserved or non-routable address',
};

function parseRange(cidr: string, kind: Range['kind']): Range {
  const [address = '', length = ''] = cidr.split('/');
  const parsed = parseAddress(address);
  if (!parsed) throw new Error(`bad range ${cidr}`);
  return { ...parsed, length: Number(length), kind };
}

function parseAddress(text: string): { bits: 32 | 128; base: bigint } | undefined {
  const address = text.replace(/%.*$/, ''); // a zone id (fe80::1%eth0) names an interface, not part of the address
  const family = isIP(address);
  if (family === 4) return { bits: 32, base: ipv4Value(address) };
  if (family === 6) return { bits: 128, base: ipv6Value(address) };
  return undefined;
}

function ipv4Value(address: string): bigint {
  return address.split('.').reduce((value, octet) => (value << 8n) | BigInt(octet), 0n);
}

/** Expands `::` and a dotted-quad tail; the input is already known to be valid IPv6. */
function ipv6Value(address: string): bigint {
  const lastColon = address.lastIndexOf(':');
  const tail = address.slice(lastColon + 1);
  let text = address;
  if (tail.includes('.')) {
    const v4 = ipv4Value(tail);
    text = `${address.slice(0, lastColon + 1)}${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`;
  }
  const [head = '', rest] = text.split('::');
  const headGroups = head === '' ? [] : head.split(':');
  const restGroups = rest === undefined || rest === '' ? [] : rest.split(':');
  const zeros: string[] = rest === undefined ? [] : Array<string>(8 - headGroups.length - restGroups.length).fill('0');
  return [...headGroups, ...zeros, ...restGroups].reduce((value, group) => (value << 16n) | BigInt(`0x${group}`), 0n);
}

function inRange(parsed: { bits: number; base: bigint }, range: Range): boolean {
  const shift = BigInt(range.bits - range.length);
  return parsed.bits === range.bits && parsed.base >> shift === range.base >> shift;
}

/** What kind of address this is; anything not an IP address at all is `reserved` (never connectable). */
export function classifyAddress(address: string): AddressKind {
  const parsed = parseAddress(address);
  if (!parsed) return 'reserved';
  const embedding = EMBEDDING.find(({ range }) => inRange(parsed, range));
  if (embedding) return classifyParsed({ bits: 32, base: (parsed.base >> embedding.shift) & 0xffffffffn });
  return classifyParsed(parsed);
}

function classifyParsed(parsed: { bits: 32 | 128; base: bigint }): AddressKind {
  return RANGES.find((range) => inRange(parsed, range))?.kind ?? 'public';
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
