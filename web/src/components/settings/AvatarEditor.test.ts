import { describe, expect, it } from 'vitest';
import { CROP_SIZE, fittingScale, MAX_AVATAR_SIDE, MAX_SCALE, MIN_SCALE, outputSide } from './AvatarEditor';

describe('avatar crop sizes', () => {
  it('fits the shorter side of the picture into the 256 px frame, within the slider range', () => {
    expect(CROP_SIZE).toBe(256);
    expect(fittingScale(1600, 1200)).toBe(0.21);
    expect(fittingScale(512, 1024)).toBe(0.5);
    expect(fittingScale(64, 64)).toBe(MAX_SCALE);
    expect(fittingScale(100_000, 90_000)).toBe(MIN_SCALE);
  });

  it('stores the framed part at its own resolution but never above 512 px', () => {
    expect(outputSide(1)).toBe(256);
    expect(outputSide(2)).toBe(128);
    expect(outputSide(0.64)).toBe(400);
    expect(outputSide(0.21)).toBe(MAX_AVATAR_SIDE);
    expect(outputSide(MIN_SCALE)).toBe(512);
  });
});
