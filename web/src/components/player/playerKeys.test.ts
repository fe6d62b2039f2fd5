import { describe, expect, it } from 'vitest';
import { playerActionForKey } from './playerKeys';

const press = (key: string, extra: Partial<{ ctrlKey: boolean; target: EventTarget | null }> = {}) =>
  playerActionForKey({ key, ctrlKey: false, metaKey: false, altKey: false, target: null, ...extra });

/** Just enough of an element for the key filter: a tag, an input type and the roles around it. */
const element = (tagName: string, { type = '', role = null as string | null } = {}) =>
  ({
    tagName,
    type,
    isContentEditable: false,
    closest: (selector: string) => (role && selector.includes(role) ? {} : null),
  }) as unknown as EventTarget;

describe('player keys', () => {
  it('maps the usual player keys', () => {
    expect([' ', 'k', 'K', 'ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', 'f', 'm', 'c', 'n'].map((key) => press(key))).toEqual([
      'toggle-play',
      'toggle-play',
      'toggle-play',
      'seek-back',
      'seek-forward',
      'volume-up',
      'volume-down',
      'fullscreen',
      'mute',
      'cycle-subtitles',
      'next-episode',
    ]);
    expect(press('x')).toBeNull();
  });

  it('leaves shortcuts with modifiers to the browser', () => {
    expect(press('f', { ctrlKey: true })).toBeNull();
  });

  it('leaves keys to text fields and open menus, but takes them from buttons and sliders', () => {
    expect(press('k', { target: element('INPUT', { type: 'text' }) })).toBeNull();
    expect(press('ArrowDown', { target: element('BUTTON', { role: 'menu' }) })).toBeNull();
    expect(press(' ', { target: element('BUTTON') })).toBe('toggle-play');
    expect(press('ArrowLeft', { target: element('INPUT', { type: 'range' }) })).toBe('seek-back');
  });
});
