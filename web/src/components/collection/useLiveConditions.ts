import { useState } from 'react';
import type { LiveCondition } from './filterConditions';

const STORAGE_KEY = 'shoko.collection.liveFilter';

function read(): LiveCondition[] {
  try {
    const parsed = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? '[]') as unknown;
    return Array.isArray(parsed) ? (parsed as LiveCondition[]) : [];
  } catch {
    return [];
  }
}

/** The live filter's conditions, kept for the browser session so leaving and reopening the filter keeps them. */
export function useLiveConditions(): [LiveCondition[], (next: LiveCondition[]) => void] {
  const [conditions, setConditions] = useState(read);
  const update = (next: LiveCondition[]) => {
    setConditions(next);
    sessionStorage.setItem(STORAGE_KEY, JSON.stringify(next));
  };
  return [conditions, update];
}
