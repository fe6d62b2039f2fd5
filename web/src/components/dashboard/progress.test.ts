import { describe, expect, it } from 'vitest';
import { clockText, timeSpanSeconds, watchProgress } from './progress';

describe('watch progress of dashboard episodes', () => {
  it('reads .NET TimeSpan texts', () => {
    expect(timeSpanSeconds('00:24:00')).toBe(1440);
    expect(timeSpanSeconds('1.02:00:00.5000000')).toBe(93_600.5);
    expect(timeSpanSeconds('-00:00:10')).toBe(-10);
    expect(timeSpanSeconds('ten minutes')).toBeNull();
    expect(timeSpanSeconds(null)).toBeNull();
  });

  it('writes clock texts', () => {
    expect(clockText(754)).toBe('12:34');
    expect(clockText(3723)).toBe('1:02:03');
    expect(clockText(5)).toBe('0:05');
  });

  it('gives the share watched and a label, or nothing without a position', () => {
    expect(watchProgress({ ResumePosition: '00:06:00', Duration: '00:24:00' })).toEqual({ fraction: 0.25, label: '6:00 / 24:00' });
    expect(watchProgress({ ResumePosition: '00:06:00', Duration: '00:00:00' })).toEqual({ fraction: 0, label: 'Resume at 6:00' });
    expect(watchProgress({ ResumePosition: null, Duration: '00:24:00' })).toBeNull();
    expect(watchProgress({ ResumePosition: '00:00:00', Duration: '00:24:00' })).toBeNull();
  });
});
