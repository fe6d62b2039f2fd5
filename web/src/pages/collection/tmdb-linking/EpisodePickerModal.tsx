import { useState } from 'react';
import type { TmdbEpisode } from '@shoko-ts/contract';
import { useTmdbShowEpisodes } from '@/api/tmdb';
import { Button } from '@/components/Button';
import { Modal } from '@/components/Modal';
import { QueryContent } from '@/components/QueryContent';
import { TextField } from '@/components/TextField';
import { useDebouncedValue } from '@/lib/useDebouncedValue';
import { seasonEpisode, TEXTS } from './linkingState';

interface EpisodePickerModalProps {
  showId: number;
  /** The AniDB episode being linked, for the title; null = closed. */
  target: { label: string; title: string } | null;
  onPick: (tmdbEpisodeId: number, episode?: TmdbEpisode) => void;
  onClose: () => void;
}

/** Picks the TMDB episode (or "no link") for one AniDB episode; searches like `S1E2`, `Specials` or a title. */
export function EpisodePickerModal({ showId, target, onPick, onClose }: EpisodePickerModalProps) {
  const [text, setText] = useState('');
  const search = useDebouncedValue(text.trim(), 250);
  const episodes = useTmdbShowEpisodes(showId, search, target !== null);
  const list = episodes.data?.pages.flatMap((page) => page.List) ?? [];
  return (
    <Modal
      open={target !== null}
      onClose={onClose}
      title={target ? `Link ${target.label} — ${target.title}` : ''}
      size="lg"
      footer={
        <>
          <Button variant="danger" onClick={() => onPick(0)}>
            No Link
          </Button>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
        </>
      }
    >
      <TextField
        label="Search TMDB episodes"
        placeholder="S1E2, Specials or a title"
        value={text}
        onChange={(event) => setText(event.target.value)}
        // eslint-disable-next-line jsx-a11y/no-autofocus -- the dialog is a search; focus starts in its search field
        autoFocus
      />
      <QueryContent query={episodes} empty={list.length === 0 && <p className="text-muted">{TEXTS.noResults}</p>}>
        {() => (
          <ul
            className="flex max-h-[50vh] flex-col divide-y divide-border overflow-y-auto rounded-md border border-border"
            aria-label="TMDB episodes"
          >
            {list.map((episode) => (
              <li key={episode.ID}>
                <button
                  type="button"
                  className="flex w-full items-center gap-3 px-3 py-2 text-left hover:bg-panel-alt"
                  onClick={() => onPick(episode.ID, episode)}
                >
                  <span className="w-16 shrink-0 font-mono text-xs text-muted">
                    {seasonEpisode(episode.SeasonNumber, episode.EpisodeNumber)}
                  </span>
                  <span className="min-w-0 flex-1 truncate">{episode.Title}</span>
                  <span className="shrink-0 text-xs text-muted">{episode.AiredAt ?? ''}</span>
                </button>
              </li>
            ))}
            {episodes.hasNextPage && (
              <li className="p-2 text-center">
                <Button variant="ghost" busy={episodes.isFetchingNextPage} onClick={() => void episodes.fetchNextPage()}>
                  Load more
                </Button>
              </li>
            )}
          </ul>
        )}
      </QueryContent>
    </Modal>
  );
}
