import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LookupAddress } from 'node:dns';
import { describe, expect, it, vi } from 'vitest';
import { addressRefusal, checkTargetUrl, classifyAddress, pinnedLookup, resolveSafeAddress, resolveSafeAddresses, TargetRefused, type AddressKind, type HostLookup } from '#shared/webhooks/webhook-target.ts';

const strict = { allowLoopbackHttp: false };
const local = { allowLoopbackHttp: true };

describe('checkTargetUrl', () => {
  it.each([
    ['https://hooks.example.com/esign', strict],
    ['https://hooks.example.com:8443/in?user=a@b.example', strict],
    ['https://8.8.8.8/hook', strict],
    ['http://localhost:3000/hook', local],
    ['http://127.0.0.1:8080/hook', local],
    ['http://127.9.9.9/hook', local],
    ['http://[::1]:9000/hook', local],
    ['https://localhost/hook', local],
  ])('accepts %s', (url, options) => {
    expect(checkTargetUrl(url, options)).toEqual({ ok: true });
  });

  it.each([
    ['http://hooks.example.com/esign', local, /must use https/],
    ['http://localhost:3000/hook', strict, /must use https/],
    ['http://127.0.0.1/hook', strict, /must use https/],
    ['http://10.0.0.1/hook', local, /must use https/],
    ['ftp://hooks.example.com/esign', strict, /must use https, not ftp/],
    ['file:///etc/passwd', local, /must use https, not file/],
    ['https://user:secret@hooks.example.com/', strict, /credentials/],
    ['https://user@hooks.example.com/', strict, /credentials/],
    ['https://hooks.example.com/esign#part', strict, /fragment/],
    ['https://hooks.example.com/esign#', strict, /fragment/],
    ['hooks.example.com/esign', strict, /not a valid/],
    ['https://localhost/hook', strict, /loopback name/],
    ['https://api.localhost/hook', strict, /loopback name/],
    ['https://127.0.0.1/hook', strict, /loopback address/],
    ['https://2130706433/hook', strict, /127\.0\.0\.1 is a loopback address/],
    ['https://10.0.0.1/hook', local, /private address/],
    ['https://169.254.169.254/latest/meta-data', local, /cloud metadata/],
    ['https://[::ffff:10.0.0.1]/hook', local, /private address/],
    ['https://[fd00:ec2::254]/hook', local, /cloud metadata/],
    ['https://[::ffff:0:a9fe:a9fe]/', local, /cloud metadata/],
    ['https://[2002:a9fe:a9fe::1]/', local, /cloud metadata/],
  ])('refuses %s', (url, options, reason) => {
    const check = checkTargetUrl(url, options);
    expect(check.ok).toBe(false);
    expect(check.ok ? '' : check.reason).toMatch(reason);
  });
});

describe('classifyAddress', () => {
  const table: [string, AddressKind][] = [
    ['8.8.8.8', 'public'], ['1.1.1.1', 'public'], ['172.32.0.1', 'public'], ['100.128.0.1', 'public'], ['11.0.0.1', 'public'],
    ['10.1.2.3', 'private'], ['172.16.0.1', 'private'], ['172.31.255.255', 'private'], ['192.168.1.1', 'private'],
    ['127.0.0.1', 'loopback'], ['127.255.255.254', 'loopback'],
    ['169.254.169.254', 'cloud-metadata'], ['169.254.1.1', 'link-local'],
    ['100.64.0.1', 'carrier-grade-nat'], ['100.127.255.255', 'carrier-grade-nat'],
    ['0.0.0.0', 'unspecified'], ['0.1.2.3', 'unspecified'],
    ['224.0.0.1', 'multicast'], ['239.255.255.250', 'multicast'], ['255.255.255.255', 'reserved'], ['198.18.0.1', 'reserved'],
    ['2606:4700:4700::1111', 'public'], ['2a00:1450:4001:80b::200e', 'public'],
    ['::1', 'loopback'], ['0:0:0:0:0:0:0:1', 'loopback'], ['::', 'unspecified'],
    ['fc00::1', 'private'], ['fd12:3456::1', 'private'], ['fd00:ec2::254', 'cloud-metadata'], ['fd00:ec2::253', 'private'],
    ['fe80::1', 'link-local'], ['FE80::1', 'link-local'], ['fe80::1%eth0', 'link-local'], ['febf::1', 'link-local'],
    ['ff02::1', 'multicast'], ['2001:db8::1', 'reserved'], ['::127.0.0.1', 'reserved'],
    ['::ffff:10.0.0.1', 'private'], ['::ffff:a00:1', 'private'], ['::ffff:127.0.0.1', 'loopback'],
    ['0:0:0:0:0:ffff:7f00:1', 'loopback'], ['::ffff:169.254.169.254', 'cloud-metadata'], ['::ffff:100.64.0.1', 'carrier-grade-nat'],
    ['::ffff:0.0.0.0', 'unspecified'], ['::ffff:8.8.8.8', 'public'],
    ['64:ff9b::a9fe:a9fe', 'cloud-metadata'], ['64:ff9b::8.8.8.8', 'public'], ['2002:c0a8:0101::1', 'private'], ['2002:0808:0808::1', 'public'],
    // IPv4-translated (SIIT), local-use NAT64, 6to4 and Teredo carry the address the packet really goes to
    ['::ffff:0:a9fe:a9fe', 'cloud-metadata'], ['::ffff:0:10.0.0.1', 'private'], ['::ffff:0:8.8.8.8', 'public'],
    ['64:ff9b::10.0.0.1', 'private'], ['64:ff9b:1::a9fe:a9fe', 'private'],
    ['2002:a9fe:a9fe::', 'cloud-metadata'], ['2002:7f00:1::1', 'loopback'],
    ['2001:0:4136:e378:8000:63bf:80ff:fffe', 'loopback'], ['2001:0:a9fe:a9fe:8000:63bf:f7f7:f7f7', 'cloud-metadata'],
    ['2001:0:4136:e378:8000:63bf:f7f7:f7f7', 'public'],
    ['100::1', 'reserved'], ['2001:2::1', 'reserved'], ['fec0::1', 'private'], ['::8.8.8.8', 'reserved'],
    ['192.88.99.1', 'reserved'], ['192.0.0.8', 'reserved'],
    ['not-an-ip', 'reserved'], ['', 'reserved'], ['127.1', 'reserved'], ['0x7f000001', 'reserved'],
  ];
  it.each(table)('%s is %s', (address, kind) => {
    expect(classifyAddress(address)).toBe(kind);
  });

  it('lets loopback through only when allowed, and nothing else', () => {
    expect(addressRefusal('127.0.0.1', { allowLoopback: false })).toBe('127.0.0.1 is a loopback address');
    expect(addressRefusal('127.0.0.1', { allowLoopback: true })).toBeNull();
    expect(addressRefusal('::1', { allowLoopback: true })).toBeNull();
    expect(addressRefusal('10.0.0.1', { allowLoopback: true })).toBe('10.0.0.1 is a private address');
    expect(addressRefusal('93.184.216.34', { allowLoopback: false })).toBeNull();
  });
});

function fakeDns(answers: Record<string, LookupAddress[]>): HostLookup & { calls: string[] } {
  const calls: string[] = [];
  const lookup = (hostname: string): Promise<LookupAddress[]> => {
    calls.push(hostname);
    return Promise.resolve(answers[hostname] ?? []);
  };
  return Object.assign(lookup, { calls });
}

describe('resolveSafeAddress', () => {
  it('returns the first address when every address is public', async () => {
    const dns = fakeDns({ 'hooks.example.com': [{ address: '93.184.216.34', family: 4 }, { address: '2606:2800::1', family: 6 }] });
    await expect(resolveSafeAddress('hooks.example.com', { allowLoopback: false, lookup: dns })).resolves
      .toEqual({ address: '93.184.216.34', family: 4 });
  });

  it('refuses the host when ANY address is unsafe, naming it', async () => {
    const dns = fakeDns({ 'mixed.example.com': [{ address: '93.184.216.34', family: 4 }, { address: '::ffff:169.254.169.254', family: 6 }] });
    const resolving = resolveSafeAddress('mixed.example.com', { allowLoopback: true, lookup: dns });
    await expect(resolving).rejects.toBeInstanceOf(TargetRefused);
    await expect(resolving).rejects.toThrow('mixed.example.com resolves to ::ffff:169.254.169.254 is a cloud metadata address');
  });

  it('resolveSafeAddresses returns every address, all vetted, in resolver order', async () => {
    const dns = fakeDns({ 'localhost': [{ address: '::1', family: 6 }, { address: '127.0.0.1', family: 4 }] });
    await expect(resolveSafeAddresses('localhost', { allowLoopback: true, lookup: dns })).resolves
      .toEqual([{ address: '::1', family: 6 }, { address: '127.0.0.1', family: 4 }]);
  });

  it('refuses a host with no address', async () => {
    await expect(resolveSafeAddress('empty.example.com', { allowLoopback: false, lookup: fakeDns({}) })).rejects.toThrow(/no address/);
  });

  it('checks literal addresses without any DNS lookup', async () => {
    const dns = fakeDns({});
    await expect(resolveSafeAddress('[::1]', { allowLoopback: true, lookup: dns })).resolves.toEqual({ address: '::1', family: 6 });
    await expect(resolveSafeAddress('10.0.0.1', { allowLoopback: true, lookup: dns })).rejects.toThrow('10.0.0.1 is a private address');
    expect(dns.calls).toEqual([]);
  });

  it('refuses localhost through the system resolver unless loopback is allowed', async () => {
    await expect(resolveSafeAddress('localhost', { allowLoopback: false })).rejects.toThrow(/localhost resolves to .* loopback/);
    const vetted = await resolveSafeAddress('localhost', { allowLoopback: true });
    expect(classifyAddress(vetted.address)).toBe('loopback');
  });
});

describe('pinnedLookup', () => {
  it('answers with the vetted address in both callback shapes', async () => {
    const lookup = pinnedLookup({ address: '203.0.113.7', family: 4 });
    const single = vi.fn();
    const all = vi.fn();
    lookup('evil.example.com', { family: 0 }, single);
    lookup('evil.example.com', { all: true }, all);
    await new Promise((resolve) => { process.nextTick(resolve); });
    expect(single).toHaveBeenCalledWith(null, '203.0.113.7', 4);
    expect(all).toHaveBeenCalledWith(null, [{ address: '203.0.113.7', family: 4 }]);
  });

  it('hands node every vetted address when it asks for all (happy eyeballs), the first otherwise', async () => {
    const lookup = pinnedLookup([{ address: '::1', family: 6 }, { address: '127.0.0.1', family: 4 }]);
    const single = vi.fn();
    const all = vi.fn();
    lookup('localhost', {}, single);
    lookup('localhost', { all: true }, all);
    await new Promise((resolve) => { process.nextTick(resolve); });
    expect(single).toHaveBeenCalledWith(null, '::1', 6);
    expect(all).toHaveBeenCalledWith(null, [{ address: '::1', family: 6 }, { address: '127.0.0.1', family: 4 }]);
  });

  it('makes node connect to the vetted address for a name DNS cannot resolve (no second resolution)', async () => {
    const server = http.createServer((_req, res) => { res.end('reached'); });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const text = await new Promise<string>((resolve, reject) => {
        const req = http.request({ host: 'webhook.invalid', port, agent: false, lookup: pinnedLookup({ address: '127.0.0.1', family: 4 }) }, (res) => {
          res.setEncoding('utf8');
          let data = '';
          res.on('data', (chunk: string) => { data += chunk; });
          res.on('end', () => { resolve(data); });
        });
        req.on('error', reject);
        req.end();
      });
      expect(text).toBe('reached');
    } finally {
      server.close();
    }
  });
});
