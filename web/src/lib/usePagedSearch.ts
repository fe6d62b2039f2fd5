import { useState } from 'react';
import { useDebouncedValue } from './useDebouncedValue';

/** How long typing pauses before a paged list asks for the new search. */
const SEARCH_DEBOUNCE_MS = 200;

/**
 * The state of a paged list with a search box: the box's text, the trimmed search it asks for once typing pauses, and
 * the page, which goes back to the first on every new text.
 */
export function usePagedSearch() {
  const [searchText, setText] = useState('');
  const search = useDebouncedValue(searchText.trim(), SEARCH_DEBOUNCE_MS);
  const [page, setPage] = useState(1);
  const setSearchText = (text: string) => {
    setText(text);
    setPage(1);
  };
  return { searchText, setSearchText, search, page, setPage };
}
