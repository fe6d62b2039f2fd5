import { Link } from 'react-router';
import type { RelatedAnime } from '@shoko-ts/contract';
import { PosterImage } from '@/components/collection/PosterImage';

/** 'SideStory' → 'Side Story'. */
const spaced = (text: string) => text.replace(/([a-z])([A-Z])/g, '$1 $2');

/** A related or similar anime: opens its series page when in the collection, else its AniDB page. */
export function AnimeCard({ anime }: { anime: RelatedAnime }) {
  const caption = anime.Relation ? spaced(anime.Relation) : anime.UserApproval ? `${anime.UserApproval.Value.toFixed(0)}% approval` : null;
  const body = (
    <>
      <div className="relative h-[195px] overflow-hidden rounded-lg border border-border">
        <PosterImage image={anime.ShokoID ? anime.Poster : undefined} className="h-full w-full" />
        {!anime.ShokoID && (
          <span className="absolute inset-x-0 bottom-0 bg-panel/90 py-0.5 text-center text-[11px] text-muted">Not In Collection</span>
        )}
      </div>
      <span className="line-clamp-2 text-center text-sm font-semibold leading-tight">{anime.Title}</span>
      {caption && <span className="text-center text-xs text-muted">{caption}</span>}
    </>
  );
  const className = 'flex w-[130px] shrink-0 flex-col gap-1.5';
  return anime.ShokoID ? (
    <Link to={`/collection/series/${anime.ShokoID}`} className={className} data-testid="anime-card" title={anime.Title}>
      {body}
    </Link>
  ) : (
    <a
      href={`https://anidb.net/anime/${anime.ID}`}
      target="_blank"
      rel="noreferrer"
      className={className}
      data-testid="anime-card"
      title={anime.Title}
    >
      {body}
    </a>
  );
}
