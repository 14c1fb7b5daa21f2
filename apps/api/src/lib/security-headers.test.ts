import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { QUIRE_CSP, securityHeaders } from './security-headers.js';

const INDEX_HTML = new URL('../../../web/index.html', import.meta.url);

describe('the content security policy', () => {
  it("allows index.html's inline scripts (the theme set before the first paint) by their hash, and no other", () => {
    const html = readFileSync(INDEX_HTML, 'utf8');
    const inline = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1] ?? '');
    expect(inline.length).toBeGreaterThan(0);
    const policy = securityHeaders(QUIRE_CSP)['content-security-policy'] ?? '';
    const scriptSrc = policy.split(';').find((d) => d.trim().startsWith('script-src')) ?? '';
    const hashes = inline.map((code) => `'sha256-${createHash('sha256').update(code).digest('base64')}'`);
    expect(scriptSrc.trim().split(/\s+/).sort()).toEqual(['script-src', "'self'", ...hashes].sort());
    expect(scriptSrc).not.toContain('unsafe-inline');
  });
});
