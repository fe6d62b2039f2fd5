import { describe, expect, it } from 'vitest';
import { loginPathFor, safeRedirectTarget } from './redirect';

describe('login redirects', () => {
  it('encodes path, search and hash', () => {
    expect(loginPathFor({ pathname: '/log', search: '?a=1&b=2', hash: '#x' })).toBe('/login?redirectTo=%2Flog%3Fa%3D1%26b%3D2%23x');
  });

  it('omits redirectTo at the root', () => {
    expect(loginPathFor({ pathname: '/', search: '', hash: '' })).toBe('/login');
  });

  it('only follows paths inside the console', () => {
    expect(safeRedirectTarget('/log?x=1')).toBe('/log?x=1');
    expect(safeRedirectTarget('/webui/log')).toBe('/log');
    expect(safeRedirectTarget('https://evil.example')).toBe('/');
    expect(safeRedirectTarget('//evil.example')).toBe('/');
    expect(safeRedirectTarget(null)).toBe('/');
  });
});
