type Standard = readonly [width: number, height: number, name: string];

/** files.md §1.8.3, grouped by aspect ratio. */
const STANDARDS: ReadonlyArray<readonly [ratio: number, sizes: readonly Standard[]]> = [
  [
    4 / 3,
    [
      [1440, 1080, '1080p'],
      [960, 720, '720p'],
      [720, 576, '576p'],
      [720, 480, '480p'],
      [480, 360, '360p'],
      [320, 240, '240p'],
    ],
  ],
  [
    16 / 9,
    [
      [3840, 2160, '2160p'],
      [2560, 1440, '1440p'],
      [1920, 1080, '1080p'],
      [1280, 720, '720p'],
      [1024, 576, '576p'],
      [853, 480, '480p'],
    ],
  ],
  [
    21 / 9,
    [
      [2560, 1080, 'UWHD'],
      [3440, 1440, 'UWQHD'],
    ],
  ],
];

const nearest = <T>(items: readonly T[], distance: (item: T) => number): T =>
  items.reduce((best, item) => (distance(item) < distance(best) ? item : best));

/** Standard name of a video size: the nearest aspect ratio first, then the nearest pixel area; null without a size. */
export function standardResolution(width: number, height: number): string | null {
  if (!(width > 0 && height > 0)) return null;
  const [, sizes] = nearest(STANDARDS, ([ratio]) => Math.abs(ratio - width / height));
  return nearest(sizes, ([w, h]) => Math.abs(w * h - width * height))[2];
}
