import { describe, expect, it } from 'vitest';
import { describeAniDBWork, formatWorkLeft } from './AniDBEstimate';

const stream = (Requests: number, Expected = 0) => ({ Requests, Expected, Seconds: 0, HeldReason: null });

describe('the AniDB work-left line of the queue view', () => {
  it('says how long in the largest units that mean something', () => {
    expect(formatWorkLeft(0)).toBe('0 s');
    expect(formatWorkLeft(45)).toBe('45 s');
    expect(formatWorkLeft(12 * 60 + 10)).toBe('12 min');
    expect(formatWorkLeft(8 * 3600 + 20 * 60)).toBe('8 h 20 min');
    expect(formatWorkLeft(3 * 3600)).toBe('3 h');
    expect(formatWorkLeft(52 * 3600 + 10 * 60)).toBe('2 d 4 h');
  });

  it('names the work of the streams that have some', () => {
    expect(describeAniDBWork({ Udp: stream(120), Http: stream(5000), Images: stream(5000, 20000), TotalSeconds: 1 })).toBe(
      '120 lookups · 5,000 anime · 25,000 pictures',
    );
    expect(describeAniDBWork({ Udp: stream(0), Http: stream(1), Images: stream(0, 1), TotalSeconds: 1 })).toBe('1 anime · 1 picture');
    expect(describeAniDBWork({ Udp: stream(0), Http: stream(0), Images: stream(0), TotalSeconds: 0 })).toBe('');
  });
});
