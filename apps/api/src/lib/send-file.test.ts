import { describe, expect, it } from 'vitest';
import { contentDisposition, parseRange } from './send-file.js';

describe('contentDisposition', () => {
  it('gives an ASCII fallback and the UTF-8 name (RFC 6266), never a header injection', () => {
    expect(contentDisposition('attachment', 'Rapport été 2026.pdf')).toBe(
      `attachment; filename="Rapport _t_ 2026.pdf"; filename*=UTF-8''Rapport%20%C3%A9t%C3%A9%202026.pdf`,
    );
    const evil = contentDisposition('attachment', 'a"\r\nSet-Cookie: x=1;../b.txt');
    expect(evil).not.toMatch(/[\r\n]/);
    expect(evil).toContain('filename="a___Set-Cookie: x=1;.._b.txt"');
    expect(contentDisposition('inline', '')).toBe(`inline; filename="file"; filename*=UTF-8''file`);
  });
});

describe('parseRange', () => {
  it('reads one range, a suffix, an open end; refuses the unsatisfiable; ignores several', () => {
    expect(parseRange(undefined, 100)).toBeNull();
    expect(parseRange('bytes=0-9', 100)).toEqual({ start: 0, end: 9 });
    expect(parseRange('bytes=90-', 100)).toEqual({ start: 90, end: 99 });
    expect(parseRange('bytes=-10', 100)).toEqual({ start: 90, end: 99 });
    expect(parseRange('bytes=50-500', 100)).toEqual({ start: 50, end: 99 });
    expect(parseRange('bytes=100-', 100)).toBe('bad');
    expect(parseRange('bytes=9-3', 100)).toBe('bad');
    expect(parseRange('bytes=-0', 100)).toBe('bad');
    expect(parseRange('items=1-2', 100)).toBe('bad');
    expect(parseRange('bytes=0-1,5-6', 100)).toBeNull();
  });
});
