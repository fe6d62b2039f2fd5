import { Menu, MenuButton, MenuItem, MenuItems } from '@headlessui/react';
import { mdiCheck } from '@mdi/js';
import { Icon } from '@/components/Icon';

export interface MenuChoice<T> {
  value: T;
  label: string;
}

interface PlayerMenuProps<T> {
  /** The button's accessible name and the menu's heading. */
  label: string;
  icon: string;
  choices: readonly MenuChoice<T>[];
  selected: T;
  onSelect: (value: T) => void;
  testId: string;
}

/** A control-bar button opening a list of choices with the current one ticked (audio, subtitles, speed). */
export function PlayerMenu<T>({ label, icon, choices, selected, onSelect, testId }: PlayerMenuProps<T>) {
  return (
    <Menu>
      <MenuButton aria-label={label} title={label} className={controlButtonClass} data-testid={`${testId}-button`}>
        <Icon path={icon} size={1} />
      </MenuButton>
      <MenuItems
        anchor={{ to: 'top end', gap: 12 }}
        className="z-50 flex max-h-[60vh] w-72 flex-col overflow-y-auto rounded-lg border border-border bg-panel/95 p-1 text-sm shadow-2xl backdrop-blur focus:outline-none"
        data-testid={`${testId}-menu`}
      >
        <div className="px-3 pt-2 pb-1 text-xs font-semibold tracking-wide text-muted uppercase">{label}</div>
        {choices.map((choice) => {
          const checked = choice.value === selected;
          return (
            <MenuItem key={String(choice.value)}>
              <button
                type="button"
                onClick={() => onSelect(choice.value)}
                className={`flex items-center gap-2 rounded-md px-3 py-2 text-left data-[focus]:bg-panel-alt ${checked ? 'text-primary' : 'text-text'}`}
              >
                <span className="w-4 shrink-0">{checked && <Icon path={mdiCheck} size={0.65} title="Selected" />}</span>
                <span className="min-w-0 flex-1 break-words">{choice.label}</span>
              </button>
            </MenuItem>
          );
        })}
      </MenuItems>
    </Menu>
  );
}

export const controlButtonClass =
  'inline-flex size-10 shrink-0 items-center justify-center rounded-full text-white/85 transition-colors hover:bg-white/10 hover:text-primary disabled:opacity-40';
