import { useEffect } from 'react';
import { parseWebUISettings, useConsoleSettings } from '@/api/settings';
import { useSession } from '@/lib/session';

export const DEFAULT_THEME = 'theme-shoko-gray';
const STORAGE_KEY = 'shoko-ts.theme';

/**
 * Puts `theme` (`theme-<ID>`) on the root element. Shoko Gray stays on as the base, so a theme that sets only some
 * colours falls back to the defaults for the rest; the theme stylesheet is moved after the console's own so the
 * uploaded theme wins where both set a colour. The choice is remembered locally so the next load starts with it.
 */
export function applyThemeClass(theme: string) {
  const root = document.documentElement;
  const wanted = /^theme-[a-z0-9-]+$/.test(theme) ? theme : DEFAULT_THEME;
  for (const name of [...root.classList])
    if (name.startsWith('theme-') && name !== DEFAULT_THEME && name !== wanted) root.classList.remove(name);
  root.classList.add(DEFAULT_THEME, wanted);
  const link = document.getElementById('theme-css');
  if (link && stylesheetAfter(link)) document.head.appendChild(link);
  try {
    localStorage.setItem(STORAGE_KEY, wanted);
  } catch {
    // Storage may be unavailable (private mode); the theme still applies for this page.
  }
}

/** Whether a stylesheet comes after this element (the build puts the theme's last; a moved link is fetched again). */
function stylesheetAfter(element: Element): boolean {
  for (let next = element.nextElementSibling; next; next = next.nextElementSibling)
    if (next.matches('link[rel="stylesheet"], style')) return true;
  return false;
}

/** The theme remembered from the last visit, applied before the settings arrive. */
export function rememberedTheme(): string {
  try {
    return localStorage.getItem(STORAGE_KEY) ?? DEFAULT_THEME;
  } catch {
    return DEFAULT_THEME;
  }
}

/** Keeps the root element's theme class in line with the saved console settings (the account's own for non-admins). */
export function ThemeRootClass() {
  const session = useSession();
  const { data } = useConsoleSettings(!!session);
  const theme = data ? parseWebUISettings(data.WebUI_Settings).theme : null;
  useEffect(() => {
    applyThemeClass(rememberedTheme());
  }, []);
  useEffect(() => {
    if (theme) applyThemeClass(theme);
  }, [theme]);
  return null;
}
