import { describe, expect, it } from 'vitest';
import { isAllowedOrigin, normalizeOrigin, parseOriginList, securityHeaders } from './edge-policy.js';

describe('edge policy', () => {
  it('normalises origins and refuses wildcards and non-http schemes', () => {
    expect(normalizeOrigin('https://Example.org:443/path')).toBe('https://example.org');
    expect(normalizeOrigin('http://192.168.1.4:8111')).toBe('http://192.168.1.4:8111');
    expect(normalizeOrigin('*')).toBeUndefined();
    expect(normalizeOrigin('null')).toBeUndefined();
    expect(normalizeOrigin('file:///etc')).toBeUndefined();
    expect(parseOriginList('https://a.example, http://b.example:3000  *')).toEqual(['https://a.example', 'http://b.example:3000']);
  });

  it('allows the own origin and listed origins only', () => {
    const own = ['http://localhost:8111'];
    expect(isAllowedOrigin('http://localhost:8111', own, [])).toBe(true);
    expect(isAllowedOrigin('https://evil.example', own, [])).toBe(false);
    expect(isAllowedOrigin('https://ui.example', own, ['https://ui.example'])).toBe(true);
  });

  it('sends HSTS only over HTTPS', () => {
    expect(securityHeaders(false)['Strict-Transport-Security']).toBeUndefined();
    expect(securityHeaders(true)['Strict-Transport-Security']).toBe('max-age=31536000');
    expect(securityHeaders(false)['Content-Security-Policy']).toContain("frame-ancestors 'none'");
  });
});
