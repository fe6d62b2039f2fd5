import { describe, expect, it } from 'vitest';
import { serverPrefixFrom } from './basePath';

describe('serverPrefixFrom', () => {
  it("reads the server's prefix from the <base> the server writes", () => {
    expect(serverPrefixFrom('/webui/')).toBe('');
    expect(serverPrefixFrom('/shoko/webui/')).toBe('/shoko');
    expect(serverPrefixFrom('/media/shoko/webui')).toBe('/media/shoko');
  });

  it('falls back to the root without a console base', () => {
    expect(serverPrefixFrom(null)).toBe('');
    expect(serverPrefixFrom(undefined)).toBe('');
    expect(serverPrefixFrom('/somewhere/else/')).toBe('');
    expect(serverPrefixFrom('https://example.org/webui/')).toBe('');
  });
});
