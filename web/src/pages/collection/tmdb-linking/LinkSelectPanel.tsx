import { useState } from 'react';
import { useConsoleSettings } from '@/api/settings';
import { useTmdbCandidates, type TmdbCandidate, type TmdbLinkType } from '@/api/tmdb';
import { Panel } from '@/components/Panel';
import { Spinner } from '@/components/Spinner';
import { TextField } from '@/components/TextField';
import { useDebouncedValue } from '@/lib/useDebouncedValue';
import { TEXTS } from './linkingState';

const SEARCH_DEBOUNCE_MS = 300;

/** The console's `collection.tmdb.includeRestricted` setting (off unless set). */
function useIncludeRestricted(): boolean {
  const { data } = useConsoleSettings();
  try {
    const parsed = JSON.parse(data?.WebUI_Settings ?? '{}') as { collection?: { tmdb?: { includeRestricted?: boolean } } };
    return parsed.collection?.tmdb?.includeRestricted ?? false;
  } catch {
    return false;
  }
}

/**
 * Picks the TMDB show or movie to link: with an empty search the automatic matcher's pick, else a title search (a
 * number also looks the id up).
 */
export function LinkSelectPanel({
  seriesId,
  initialType,
  onPick,
  busy,
}: {
  seriesId: number;
  initialType: TmdbLinkType;
  onPick: (candidate: TmdbCandidate) => void;
  busy: boolean;
}) {
  const [type, setType] = useState<TmdbLinkType>(initialType);
  const [text, setText] = useState('');
  const search = useDebouncedValue(text.trim(), SEARCH_DEBOUNCE_MS);
  const includeRestricted = useIncludeRestricted();
  const candidates = useTmdbCandidates(seriesId, type, search, includeRestricted);
  // An empty search lists the automatic matcher's pick, a show or a movie whichever type is selected.
  const shown = candidates.data ?? [];
  return (
    <Panel title="Select TMDB Link">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
        <div className="flex gap-1 rounded-md border border-border p-1" role="radiogroup" aria-label="TMDB type">
          {(['Show', 'Movie'] as const).map((option) => (
            <button
              key={option}
              type="button"
              role="radio"
              aria-checked={type === option}
              onClick={() => setType(option)}
              className={`rounded px-3 py-1.5 text-sm font-semibold ${type === option ? 'bg-primary text-on-primary' : 'text-muted hover:text-text'}`}
            >
              {option}
            </button>
          ))}
        </div>
        <TextField
          label="Search TMDB"
          className="flex-1"
          placeholder="Title or TMDB ID"
          value={text}
          onChange={(event) => setText(event.target.value)}
        />
      </div>
      {candidates.isPending || busy ? (
        <Spinner />
      ) : candidates.isError ? (
        <p className="text-sm text-danger">{candidates.error.message}</p>
      ) : shown.length === 0 ? (
        <p className="text-sm text-muted">{TEXTS.noResults}</p>
      ) : (
        <ul className="flex flex-col divide-y divide-border rounded-md border border-border" aria-label="TMDB results">
          {shown.map((candidate) => (
            <li key={`${candidate.type}-${candidate.id}`}>
              <button
                type="button"
                className="flex w-full items-center gap-3 px-3 py-2 text-left text-sm hover:bg-panel-alt"
                onClick={() => onPick(candidate)}
              >
                <span className="w-14 shrink-0 rounded bg-panel-alt px-2 py-0.5 text-center text-xs font-semibold">{candidate.type}</span>
                <span className="min-w-0 flex-1 truncate font-semibold">{candidate.title}</span>
                <span className="shrink-0 text-muted">{candidate.date?.slice(0, 4) ?? '—'}</span>
                <span className="hidden shrink-0 text-muted sm:inline">#{candidate.id}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </Panel>
  );
}
