export type PlayerAction =
  'toggle-play' | 'seek-back' | 'seek-forward' | 'volume-up' | 'volume-down' | 'fullscreen' | 'mute' | 'cycle-subtitles' | 'next-episode';

const KEYS: Record<string, PlayerAction> = {
  ' ': 'toggle-play',
  k: 'toggle-play',
  ArrowLeft: 'seek-back',
  ArrowRight: 'seek-forward',
  ArrowUp: 'volume-up',
  ArrowDown: 'volume-down',
  f: 'fullscreen',
  m: 'mute',
  c: 'cycle-subtitles',
  n: 'next-episode',
};

export const SEEK_STEP_SECONDS = 10;
export const VOLUME_STEP = 0.1;

interface KeyPress {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  target: EventTarget | null;
}

/** Typing in a field or using a menu keeps its keys; a button or the page hands them to the player. */
function keepsKeys(target: EventTarget | null): boolean {
  if (!target || typeof (target as Element).closest !== 'function') return false;
  const element = target as HTMLElement;
  if (element.isContentEditable) return true;
  if (element.closest('[role="menu"], [role="listbox"], [role="dialog"]')) return true;
  const tag = element.tagName;
  if (tag === 'TEXTAREA' || tag === 'SELECT') return true;
  if (tag === 'INPUT') return !['range', 'checkbox', 'button'].includes((element as HTMLInputElement).type);
  return false;
}

/** The player action of a key press, or null when the key is not the player's (modifiers, text fields, menus). */
export function playerActionForKey(event: KeyPress): PlayerAction | null {
  if (event.ctrlKey || event.metaKey || event.altKey || keepsKeys(event.target)) return null;
  return KEYS[event.key.length === 1 ? event.key.toLowerCase() : event.key] ?? null;
}
