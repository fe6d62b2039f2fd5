import type { PlaybackChapter } from '@shoko-ts/contract';

export type SkippablePart = 'Opening' | 'Ending';

// Chapter names release groups give the theme songs: "Opening", "OP", "OP2", "Intro", "Opening Credits", "ED",
// "Ending", "Outro", "End Credits". Parts such as "Prologue" or "Preview" are story and are not offered.
const OPENING = /^(?:op|opening|intro)(?:[\s._-]*\d+)?(?:\s+(?:credits|song|theme))?$/i;
const ENDING = /^(?:ed|ending|outro|credits|end\s+credits)(?:[\s._-]*\d+)?(?:\s+(?:credits|song|theme))?$/i;

export function skippablePart(title: string | null): SkippablePart | null {
  const name = (title ?? '').trim();
  if (OPENING.test(name)) return 'Opening';
  if (ENDING.test(name)) return 'Ending';
  return null;
}

/** The opening or ending being played at `time` and where it ends, for the Skip button; null elsewhere. */
export function skipTarget(chapters: readonly PlaybackChapter[], time: number): { part: SkippablePart; end: number } | null {
  for (const chapter of chapters) {
    const part = skippablePart(chapter.Title);
    // The last second of a part is not worth a button.
    if (part && time >= chapter.Start && time < chapter.End - 1) return { part, end: chapter.End };
  }
  return null;
}
