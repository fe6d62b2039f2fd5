import { useEffect } from 'react';

/** Sets the tab title while a utility page is open. */
export function usePageTitle(title: string) {
  useEffect(() => {
    document.title = `${title} | Shoko`;
    return () => {
      document.title = 'Shoko';
    };
  }, [title]);
}
