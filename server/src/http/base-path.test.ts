import { describe, expect, it } from 'vitest';
import { readConfig } from '../config.js';
import { normalizeBasePath, stripBasePath, trustedProxyMatcher } from './base-path.js';

describe('normalizeBasePath', () => {
  it('adds the leading slash and drops trailing ones', () => {
    expect(normalizeBasePath('shoko')).toBe('/shoko');
    expect(normalizeBasePath('/shoko/')).toBe('/shoko');
    expect(normalizeBasePath(' /media/shoko// ')).toBe('/media/shoko');
    expect(normalizeBasePath('/')).toBe('');
    expect(normalizeBasePath('')).toBe('');
    expect(normalizeBasePath(undefined)).toBe('');
  });

  it('refuses what is not a plain path, with the variable named', () => {
    for (const bad of ['/sho ko', '/shoko?x=1', '/a//b', '/../etc', 'https://example.org/shoko', '/shoko#top', '/"><x']) {
      expect(() => normalizeBasePath(bad), bad).toThrow(/SHOKO_BASE_PATH/);
    }
  });

  it('is read by readConfig, which fails the start on a bad value', () => {
    expect(readConfig({ SHOKO_BASE_PATH: 'shoko/' }).basePath).toBe('/shoko');
    expect(readConfig({}).basePath).toBe('');
    expect(() => readConfig({ SHOKO_BASE_PATH: '/a b' })).toThrow(/SHOKO_BASE_PATH must be a path/);
  });
});

describe('stripBasePath', () => {
  const strip = (url: string) => stripBasePath('/shoko')!({ url } as never);
  it('takes the prefix off paths under it and leaves the rest', () => {
    expect(strip('/shoko/api/v3/Init/Status?x=1')).toBe('/api/v3/Init/Status?x=1');
    expect(strip('/shoko')).toBe('/');
    expect(strip('/shoko?x=1')).toBe('/?x=1');
    expect(strip('/shokox/api')).toBe('/shokox/api');
    expect(strip('/api/v3/Init/Status')).toBe('/api/v3/Init/Status');
    expect(stripBasePath('')).toBeUndefined();
  });
});

describe('trustedProxyMatcher', () => {
  it('matches addresses, CIDR ranges and the named ranges; IPv4-mapped peers count as IPv4', () => {
    const trusts = trustedProxyMatcher(['loopback', '10.1.0.0/16', '2001:db8::5']);
    expect(trusts('127.0.0.1')).toBe(true);
    expect(trusts('::ffff:127.0.0.1')).toBe(true);
    expect(trusts('::1')).toBe(true);
    expect(trusts('10.1.200.3')).toBe(true);
    expect(trusts('10.2.0.1')).toBe(false);
    expect(trusts('2001:db8::5')).toBe(true);
    expect(trusts('2001:db8::6')).toBe(false);
    expect(trusts(undefined)).toBe(false);
    expect(trustedProxyMatcher([])('127.0.0.1')).toBe(false);
  });

  it('refuses entries that are not addresses', () => {
    expect(() => trustedProxyMatcher(['proxy.local'])).toThrow(/SHOKO_TRUSTED_PROXIES/);
    expect(() => trustedProxyMatcher(['10.0.0.0/33'])).toThrow(/SHOKO_TRUSTED_PROXIES/);
  });
});
