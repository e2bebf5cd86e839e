import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { acceptLogo, checkPng, MAX_LOGO_BYTES } from '#shared/console/branding-logo.ts';
import { sanitizeSvg } from '#shared/console/svg-sanitizer.ts';
import { ValidationError } from '#shared/kernel/errors.ts';

const now = new Date('2026-01-01T00:00:00Z');
const svgUri = (svg: string) => `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
const png = (width: number, height: number) => {
  const image = new PNG({ width, height });
  image.data.fill(200);
  return PNG.sync.write(image);
};
const refusal = async (run: () => unknown) => {
  try {
    await run();
  } catch (error) {
    return error as ValidationError;
  }
  throw new Error('not refused');
};

describe('SVG logos are sanitised', () => {
  const clean = (svg: string) => sanitizeSvg(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">${svg}</svg>`) ?? '';

  it('keeps the drawing', () => {
    const out = clean('<g transform="translate(1 1)"><path d="M0 0L10 10" stroke="#123456"/><circle cx="5" cy="5" r="2" fill="url(#g)"/></g><linearGradient id="g"><stop offset="0" stop-color="red"/></linearGradient>');
    expect(out).toContain('<path d="M0 0L10 10" stroke="#123456">');
    expect(out).toContain('fill="url(#g)"');
    expect(out).toContain('<linearGradient id="g">');
    expect(out).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" viewBox="0 0 10 10"/);
  });

  it('removes scripts, whatever their case, with their text', () => {
    expect(clean('<script>alert(1)</script><SCRIPT>alert(2)</SCRIPT><rect/>')).not.toMatch(/script|alert/i);
  });

  it('removes event handlers (onload, onclick, ONMOUSEOVER)', () => {
    const out = sanitizeSvg('<svg onload="alert(1)"><rect onclick="x()" ONMOUSEOVER="y()" width="1"/></svg>') ?? '';
    expect(out).not.toMatch(/on(load|click|mouseover)|alert/i);
    expect(out).toContain('width="1"');
  });

  it('removes foreignObject and what it holds', () => {
    expect(clean('<foreignObject width="10" height="10"><div xmlns="http://www.w3.org/1999/xhtml"><iframe src="https://evil.example"></iframe>hi</div></foreignObject>')).not.toMatch(/foreign|iframe|div|evil|hi/i);
  });

  it('removes external references: href and xlink:href other than #id, <use> of another file, <a> links', () => {
    const out = clean('<use href="https://evil.example/s.svg#a"/><use xlink:href="#a"/><use xlink:href="//evil.example/x#b"/><a href="javascript:alert(1)"><rect/></a>');
    expect(out).toContain('<use xlink:href="#a">');
    expect(out).not.toMatch(/evil|javascript|<a[\s>]/);
  });

  it('removes <image>, data: URIs included', () => {
    const out = clean('<image href="data:image/png;base64,iVBORw0KGgo="/><image xlink:href="https://evil.example/x.png"/><image href="data:image/svg+xml;base64,PHN2Zz4="/>');
    expect(out).not.toMatch(/image|data:|evil/);
  });

  it('removes CSS url() that reaches outside: attributes, style attributes, <style> elements, @import', () => {
    const out = clean([
      '<rect fill="url(https://evil.example/p)" stroke="url(#ok)"/>',
      '<rect style="fill:url(\'//evil.example/a\')"/>',
      '<style>rect{fill:url(http://evil.example/b)}</style>',
      '<style>@import "https://evil.example/c.css";</style>',
      '<style>.a{fill:red}</style>',
    ].join(''));
    expect(out).not.toMatch(/evil|@import/);
    expect(out).toContain('stroke="url(#ok)"');
    expect(out).toContain('<style>.a{fill:red}</style>');
  });

  it('drops a DTD with entities, and refuses what is no SVG', () => {
    const out = sanitizeSvg('<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "aaaa">]><svg><text>&a;</text></svg>') ?? '';
    expect(out).toMatch(/^<svg[^>]*><text>[^<]*<\/text><\/svg>$/);
    expect(out).not.toMatch(/aaaa|ENTITY|DOCTYPE/);
    expect(sanitizeSvg('<html><body>hi</body></html>')).toBeNull();
  });

  it('acceptLogo stores the sanitised file, named by its hash, with the viewBox size', async () => {
    const logo = await acceptLogo(svgUri('<svg viewBox="0 0 120 40" onload="alert(1)"><rect width="120" height="40"/></svg>'), now);
    expect(logo.contentType).toBe('image/svg+xml');
    expect(Buffer.from(logo.bytes).toString()).not.toContain('onload');
    expect(logo).toMatchObject({ width: 120, height: 40, id: expect.stringMatching(/^[0-9a-f]{64}$/) as unknown });
  });
});

describe('PNG logos are validated', () => {
  it('accepts a PNG and reads its size', async () => {
    const logo = await acceptLogo(`data:image/png;base64,${png(64, 32).toString('base64')}`, now);
    expect(logo).toMatchObject({ contentType: 'image/png', width: 64, height: 32, sizeBytes: png(64, 32).length });
  });

  it('refuses a file without the PNG signature, a corrupted chunk, a truncated file', async () => {
    const good = png(8, 8);
    expect((await refusal(() => checkPng(Buffer.from('GIF89a-not-a-png-at-all-padding-padding')))).reason).toBe('logo_invalid');
    const corrupt = Buffer.from(good);
    corrupt[40] = (corrupt[40] ?? 0) ^ 0xff; // inside IDAT: its CRC no longer matches
    expect((await refusal(() => checkPng(corrupt))).message).toMatch(/not a valid PNG/);
    expect((await refusal(() => checkPng(good.subarray(0, good.length - 20)))).reason).toBe('logo_invalid');
  });

  it('refuses dimensions over 4096 pixels before inflating anything', async () => {
    const header = Buffer.from(png(8, 8));
    header.writeUInt32BE(100_000, 16); // IHDR width (its CRC is not even checked: the size refuses first)
    expect((await refusal(() => checkPng(header))).message).toMatch(/100000x8 pixels/);
  });

  it('refuses a data URI of another type', async () => {
    expect((await refusal(() => acceptLogo('data:image/gif;base64,R0lGODlh', now))).reason).toBe('logo_invalid');
    expect((await refusal(() => acceptLogo('https://example.com/logo.png', now))).reason).toBe('logo_invalid');
  });
});

describe('size limit', () => {
  it('a logo over 200 KB is refused with logo_too_large; 200 KB exactly is not', async () => {
    const big = `<svg viewBox="0 0 1 1"><desc>${'x'.repeat(MAX_LOGO_BYTES)}</desc></svg>`;
    const error = await refusal(() => acceptLogo(svgUri(big), now));
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.reason).toBe('logo_too_large');
    const fits = `<svg viewBox="0 0 1 1"><desc>${'x'.repeat(MAX_LOGO_BYTES - 200)}</desc></svg>`;
    expect(Buffer.byteLength(fits)).toBeLessThanOrEqual(MAX_LOGO_BYTES);
    expect((await acceptLogo(svgUri(fits), now)).contentType).toBe('image/svg+xml');
  });
});
