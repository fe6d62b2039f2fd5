import type { KeyboardEvent, ReactNode } from 'react';
import { Link, NavLink, type To } from 'react-router';

/**
 * Looks of a tab: the classes every tab has, those of the selected one and those of the others.
 * The strings stay whole so that Tailwind finds them in this file.
 */
const TONES = {
  /** Idle tabs on the darker shade, for tabs inside a panel or a modal. */
  filled: {
    base: 'rounded-md px-3 py-1.5 text-sm font-semibold',
    on: 'bg-primary text-on-primary',
    off: 'bg-panel-alt text-muted hover:text-text',
  },
  /** Idle tabs on the panel colour, for tabs standing on the page background. */
  page: {
    base: 'rounded-md px-3 py-1.5 text-sm font-semibold',
    on: 'bg-primary text-on-primary',
    off: 'bg-panel text-muted hover:text-text',
  },
  /** Idle tabs without a background. */
  bare: { base: 'rounded-md px-3 py-1.5 text-sm font-semibold', on: 'bg-primary text-on-primary', off: 'text-muted hover:text-text' },
  /** Idle tabs without a background that light up under the pointer. */
  hover: {
    base: 'rounded-md px-3 py-1.5 text-sm font-semibold',
    on: 'bg-primary text-on-primary',
    off: 'text-muted hover:bg-panel-alt hover:text-text',
  },
  /** A quieter selected tab: the darker shade with the primary colour as text. */
  quiet: { base: 'rounded-md px-3 py-1.5 text-sm font-semibold', on: 'bg-panel-alt text-primary', off: 'text-muted hover:text-text' },
  /** A vertical section menu beside the page. */
  side: {
    base: 'whitespace-nowrap rounded-md px-3 py-2 text-sm font-semibold',
    on: 'bg-panel text-primary',
    off: 'text-muted hover:bg-panel hover:text-text',
  },
} as const;

export type TabTone = keyof typeof TONES;

function tabClass(tone: TabTone, selected: boolean, extra = '') {
  const { base, on, off } = TONES[tone];
  return `${extra ? `${extra} ` : ''}${base} ${selected ? on : off}`;
}

/** Arrow keys, Home and End move the focus along a row of tabs; Tab still visits every one of them. */
function moveFocus(event: KeyboardEvent<HTMLElement>) {
  const keys = ['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', 'Home', 'End'];
  if (!keys.includes(event.key)) return;
  const items = [...(event.currentTarget.parentElement?.querySelectorAll<HTMLElement>(':scope > [role="tab"]') ?? [])];
  const at = items.indexOf(event.currentTarget);
  if (at < 0) return;
  const step = event.key === 'ArrowLeft' || event.key === 'ArrowUp' ? -1 : 1;
  const next = event.key === 'Home' ? 0 : event.key === 'End' ? items.length - 1 : (at + step + items.length) % items.length;
  event.preventDefault();
  items[next]?.focus();
}

export interface TabItem<K> {
  key: K;
  label: ReactNode;
}

/** A tablist of buttons that switch what the component shows below it (the selected tab has aria-selected). */
export function TabList<K extends string | number | null>({
  label,
  tabs,
  selected,
  onSelect,
  tone = 'filled',
  className = 'flex flex-wrap gap-2',
  tabClassName,
}: {
  label: string;
  tabs: readonly TabItem<K>[];
  selected: K;
  onSelect: (key: K) => void;
  tone?: TabTone;
  className?: string;
  tabClassName?: string;
}) {
  return (
    <div className={className} role="tablist" aria-label={label}>
      {tabs.map((tab) => (
        <button
          key={String(tab.key)}
          type="button"
          role="tab"
          aria-selected={tab.key === selected}
          onClick={() => onSelect(tab.key)}
          onKeyDown={moveFocus}
          className={tabClass(tone, tab.key === selected, tabClassName)}
        >
          {tab.label}
        </button>
      ))}
    </div>
  );
}

export interface NavTabItem {
  to: To;
  label: ReactNode;
  /** Needed with `current`: which tab this is. */
  key?: string;
}

/**
 * A navigation row of links that act as tabs over routes; the current one has aria-current="page".
 * The router decides which one is current, unless `current` names it (for routes that fall back to a default tab).
 */
export function NavTabs({
  label,
  tabs,
  tone = 'page',
  className = 'flex flex-wrap gap-2',
  end,
  current,
  relative,
  onNavigate,
}: {
  label: string;
  tabs: readonly NavTabItem[];
  tone?: TabTone;
  className?: string;
  /** Match the whole path only (NavLink's `end`). */
  end?: boolean;
  current?: string;
  relative?: 'path' | 'route';
  onNavigate?: () => void;
}) {
  return (
    <nav className={className} aria-label={label}>
      {tabs.map((tab) => {
        const key = tab.key ?? (typeof tab.to === 'string' ? tab.to : String(tab.to.pathname));
        return current === undefined ? (
          <NavLink
            key={key}
            to={tab.to}
            end={end}
            relative={relative}
            onClick={onNavigate}
            className={({ isActive }) => tabClass(tone, isActive)}
          >
            {tab.label}
          </NavLink>
        ) : (
          <Link
            key={key}
            to={tab.to}
            relative={relative}
            onClick={onNavigate}
            aria-current={key === current ? 'page' : undefined}
            className={tabClass(tone, key === current)}
          >
            {tab.label}
          </Link>
        );
      })}
    </nav>
  );
}
