/**
 * A strict DER reader for tests: lists where an encoding is valid BER but not DER (X.690 §10-11), which strict
 * parsers (and signature validators re-encoding what they hash) reject. It checks what DER fixes without knowing the
 * schema: definite minimal lengths, primitive strings, BOOLEAN as 00/FF, minimal INTEGERs, SET members in order,
 * GeneralizedTime in Z without a trailing zero fraction. DEFAULT values left out need the schema: tests check those.
 */
export function derViolations(bytes: Uint8Array): string[] {
  const problems: string[] = [];
  walk(bytes, 0, bytes.length, '', problems);
  return problems;
}

interface Tlv { tagClass: number; constructed: boolean; tag: number; start: number; contentStart: number; end: number }

function read(bytes: Uint8Array, offset: number, limit: number, path: string, problems: string[]): Tlv | null {
  const first = bytes[offset];
  if (first === undefined) return null;
  let cursor = offset + 1;
  let tag = first & 0x1f;
  if (tag === 0x1f) {
    tag = 0;
    let byte: number;
    do { byte = bytes[cursor++] ?? 0; tag = tag * 128 + (byte & 0x7f); } while (byte & 0x80);
  }
  const lengthByte = bytes[cursor++];
  if (lengthByte === undefined) { problems.push(`${path}: cut short`); return null; }
  let length = lengthByte;
  if (lengthByte === 0x80) { problems.push(`${path}: indefinite length`); return null; }
  if (lengthByte & 0x80) {
    const count = lengthByte & 0x7f;
    length = 0;
    for (let i = 0; i < count; i++) length = length * 256 + (bytes[cursor++] ?? 0);
    if (bytes[cursor - count] === 0) problems.push(`${path}: length with a leading zero byte`);
    if (length < 128) problems.push(`${path}: long-form length ${String(length)} (short form required)`);
  }
  const end = cursor + length;
  if (end > limit) { problems.push(`${path}: length runs past its container`); return null; }
  return { tagClass: first >> 6, constructed: (first & 0x20) !== 0, tag, start: offset, contentStart: cursor, end };
}

function walk(bytes: Uint8Array, offset: number, limit: number, path: string, problems: string[]): void {
  let index = 0;
  let previous: Uint8Array | null = null;
  const inSet = path.endsWith('SET');
  while (offset < limit) {
    const at = `${path}/${String(index++)}`;
    const tlv = read(bytes, offset, limit, at, problems);
    if (!tlv) return;
    const content = bytes.subarray(tlv.contentStart, tlv.end);
    const universal = tlv.tagClass === 0;
    if (universal && (tlv.tag === 3 || tlv.tag === 4) && tlv.constructed) problems.push(`${at}: constructed ${tlv.tag === 4 ? 'OCTET' : 'BIT'} STRING`);
    if (universal && tlv.tag === 1 && (content.length !== 1 || (content[0] !== 0 && content[0] !== 0xff))) problems.push(`${at}: BOOLEAN not 00 or FF`);
    if (universal && tlv.tag === 2 && content.length > 1 && ((content[0] === 0 && ((content[1] ?? 0) & 0x80) === 0) || (content[0] === 0xff && ((content[1] ?? 0) & 0x80) !== 0))) {
      problems.push(`${at}: INTEGER not minimal`);
    }
    if (universal && tlv.tag === 24) {
      const text = Buffer.from(content).toString('latin1');
      if (!text.endsWith('Z') || /\.\d*0Z$/.test(text) || text.endsWith('.Z')) problems.push(`${at}: GeneralizedTime ${text} not in DER form`);
    }
    if (inSet) {
      const encoding = bytes.subarray(tlv.start, tlv.end);
      if (previous && Buffer.compare(previous, encoding) > 0) problems.push(`${at}: SET members out of order`);
      previous = encoding;
    }
    if (tlv.constructed) walk(bytes, tlv.contentStart, tlv.end, universal && tlv.tag === 17 ? `${at}SET` : at, problems);
    offset = tlv.end;
  }
}
