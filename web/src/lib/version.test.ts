import { describe, expect, it } from 'vitest';
import { compareSemVer, formatVersion, isServerSupported, serverVersionAsSemVer } from './version';

describe('server version gate', () => {
  it('reads four-part versions as a.b.c-dev.d', () => {
    expect(serverVersionAsSemVer('5.3.3.0')).toBe('5.3.3-dev.0');
    expect(serverVersionAsSemVer('5.2.0')).toBe('5.2.0');
  });

  it('accepts 5.3.3.0 and newer, rejects older', () => {
    expect(isServerSupported({ Version: '5.3.3.0', ReleaseChannel: 'Stable' })).toBe(true);
    expect(isServerSupported({ Version: '5.3.3.12', ReleaseChannel: 'Dev' })).toBe(true);
    expect(isServerSupported({ Version: '5.4.0.0', ReleaseChannel: 'Stable' })).toBe(true);
    expect(isServerSupported({ Version: '5.3.2.99', ReleaseChannel: 'Stable' })).toBe(false);
    expect(isServerSupported({ Version: '4.9.9.9', ReleaseChannel: 'Dev' })).toBe(false);
  });

  it('never blocks Debug builds', () => {
    expect(isServerSupported({ Version: '1.0.0.0', ReleaseChannel: 'Debug' })).toBe(true);
  });

  it('orders prereleases below releases', () => {
    expect(compareSemVer('5.3.3-dev.4', '5.3.3')).toBe(-1);
    expect(compareSemVer('5.3.3-dev.10', '5.3.3-dev.9')).toBe(1);
  });

  it('shows channel and short commit for non-stable versions', () => {
    expect(formatVersion({ Version: '5.3.3.0', ReleaseChannel: 'Stable', Commit: 'abcdef123' })).toBe('5.3.3.0');
    expect(formatVersion({ Version: '5.3.3.0', ReleaseChannel: 'Dev', Commit: 'abcdef123' })).toBe('5.3.3.0-Dev (abcdef1)');
  });
});
