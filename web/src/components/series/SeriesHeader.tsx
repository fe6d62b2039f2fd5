import { mdiChevronRight, mdiPencil } from '@mdi/js';
import { useState, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import type { Series } from '@shoko-ts/contract';
import { useSeriesExtra, useSeriesGroup, useSeriesTags, useVoteSeries } from '@/api/series';
import { useIsAdmin } from '@/api/users';
import { Button } from '@/components/Button';
import { Icon } from '@/components/Icon';
import { Panel } from '@/components/Panel';
import { PosterImage } from '@/components/collection/PosterImage';
import { useFilterDescription } from '@/components/collection/collectionSettings';
import { CustomTagsModal } from './CustomTagsModal';
import { StarRating } from './StarRating';
import { airDateRange, airingStatus, anidbDescription, animeTypeName, ratingText, seasonCondition, timeSpanMinutes } from './seriesFormat';

const TOP_TAGS = 10;
/** Where the collection's live filter keeps its conditions (see useLiveConditions). */
const LIVE_FILTER_KEY = 'shoko.collection.liveFilter';

/** Breadcrumb, title, poster and the four panels above the series tabs. */
export function SeriesHeader({ series }: { series: Series }) {
  const group = useSeriesGroup(series.IDs.ID, series.IDs.ParentGroup);
  const [editingTags, setEditingTags] = useState(false);
  const isAdmin = useIsAdmin();
  const filterDescription = useFilterDescription();
  const anidb = series.AniDB;
  return (
    <div className="flex flex-col gap-4" data-testid="series-header">
      <nav aria-label="Breadcrumb" className="flex flex-wrap items-center gap-1 text-sm text-muted">
        <Link to="/collection" className="hover:text-text">
          Collection
        </Link>
        {group.data && group.data.Size > 1 && (
          <>
            <Icon path={mdiChevronRight} size={0.7} />
            <Link to={`/collection/group/${group.data.IDs.ID}`} className="hover:text-text">
              {group.data.Name}
            </Link>
          </>
        )}
        <Icon path={mdiChevronRight} size={0.7} />
        <span className="text-text">{series.Name}</span>
      </nav>
      <div className="flex flex-col gap-4 md:flex-row">
        <div className="mx-auto h-[300px] w-[210px] shrink-0 overflow-hidden rounded-lg border border-border md:mx-0">
          <PosterImage image={series.Images.Posters[0]} className="h-full w-full" />
        </div>
        <div className="flex min-w-0 flex-1 flex-col gap-4">
          <div className="flex flex-wrap items-center gap-3">
            <h1 className="min-w-0 break-words text-2xl font-semibold" data-testid="series-title">
              {series.Name}
            </h1>
            {anidb?.Restricted && <span className="rounded bg-danger px-2 py-0.5 text-xs font-bold text-white">18+ Adults Only</span>}
          </div>
          <Panel title="Description" className="flex-1">
            <p className="whitespace-pre-line text-sm leading-relaxed" data-testid="series-description">
              {anidbDescription(series.Description, filterDescription) || 'No description available.'}
            </p>
          </Panel>
        </div>
      </div>
      <div className="grid grid-cols-1 gap-4 lg:grid-cols-3">
        <InformationPanel series={series} />
        <Panel
          title="Top 10 Tags"
          actions={
            isAdmin && (
              <Button variant="ghost" className="px-2 py-1" aria-label="Edit custom tags" onClick={() => setEditingTags(true)}>
                <Icon path={mdiPencil} size={0.75} />
              </Button>
            )
          }
        >
          <TopTags seriesId={series.IDs.ID} />
        </Panel>
        <UserStatsPanel series={series} />
      </div>
      <CustomTagsModal seriesId={series.IDs.ID} open={editingTags} onClose={() => setEditingTags(false)} />
    </div>
  );
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex justify-between gap-4 text-sm">
      <span className="font-semibold">{label}</span>
      <span className="text-right text-muted">{children}</span>
    </div>
  );
}

function InformationPanel({ series }: { series: Series }) {
  const extra = useSeriesExtra(series.IDs.ID);
  const navigate = useNavigate();
  const anidb = series.AniDB;
  const minutes = timeSpanMinutes(extra.data?.RuntimeLength);
  const season = extra.data?.FirstAirSeason ?? null;
  const studios = extra.data?.Studios.map((s) => s.Name).filter(Boolean) ?? [];
  const openSeason = () => {
    const condition = season && seasonCondition(season);
    if (!condition) return;
    sessionStorage.setItem(LIVE_FILTER_KEY, JSON.stringify([condition]));
    navigate('/collection/filter/live');
  };
  return (
    <Panel title="Information">
      <div className="flex flex-col gap-2" data-testid="series-information">
        <Row label="Type">{animeTypeName(anidb?.Type)}</Row>
        <Row label="Source">{extra.data?.SourceMaterial ?? '…'}</Row>
        <Row label="Airdate">{airDateRange(anidb?.AirDate, anidb?.EndDate)}</Row>
        <Row label="Status">{airingStatus(anidb?.AirDate, anidb?.EndDate)}</Row>
        <Row label="Episodes">
          {series.Sizes.Total.Episodes} {series.Sizes.Total.Episodes === 1 ? 'Episode' : 'Episodes'} | {series.Sizes.Total.Specials}{' '}
          {series.Sizes.Total.Specials === 1 ? 'Special' : 'Specials'}
        </Row>
        <Row label="Length">{minutes === null ? 'Unknown' : `${minutes} Minutes/Episode`}</Row>
        {season && (
          <Row label="Season">
            <button type="button" className="text-primary hover:underline" onClick={openSeason}>
              {season}
            </button>
          </Row>
        )}
        <Row label="Studio">{extra.isPending ? '…' : studios.length ? studios.join(', ') : 'Studio Not Listed'}</Row>
      </div>
    </Panel>
  );
}

function TopTags({ seriesId }: { seriesId: number }) {
  const tags = useSeriesTags(seriesId);
  if (tags.isPending) return <p className="text-sm text-muted">Loading…</p>;
  if (tags.isError) return <p className="text-sm text-danger">{tags.error.message}</p>;
  const top = tags.data.filter((tag) => !tag.IsSpoiler && !tag.IsLocalSpoiler).slice(0, TOP_TAGS);
  if (!top.length) return <p className="text-sm text-muted">No tags.</p>;
  return (
    <ul className="flex flex-wrap gap-2" aria-label="Top tags">
      {top.map((tag) => (
        <li
          key={`${tag.Source}-${tag.ID}`}
          className={`rounded-md border px-2 py-1 text-xs font-semibold ${tag.Source === 'User' ? 'border-primary text-primary' : 'border-border'}`}
        >
          {tag.Name}
        </li>
      ))}
    </ul>
  );
}

function UserStatsPanel({ series }: { series: Series }) {
  const vote = useVoteSeries(series.IDs.ID);
  const { Local, Watched, Missing, FileSources } = series.Sizes;
  const files = Object.values(FileSources).reduce((sum, count) => sum + count, 0);
  const watched = Watched.Episodes + Watched.Specials + Watched.Others;
  const local = Local.Episodes + Local.Specials + Local.Others;
  const missing = Missing.Episodes + Missing.Specials;
  const rating = ratingText(series.UserRating);
  return (
    <Panel title="User Stats">
      <div className="flex flex-col gap-2" data-testid="series-user-stats">
        <Row label="Files">{files}</Row>
        <Row label="Watched">
          <span data-testid="series-watched-count">
            {watched} / {local}
          </span>
        </Row>
        <Row label="Missing">
          {missing > 0 ? (
            <Link to="episodes?includeMissing=only" className="text-primary hover:underline">
              {missing}
            </Link>
          ) : (
            0
          )}
        </Row>
        <div className="flex flex-wrap items-center justify-between gap-2 text-sm">
          <span className="font-semibold">Rating</span>
          <span className="text-muted">{rating ?? 'Not Rated'}</span>
        </div>
        <StarRating value={series.UserRating?.Value ?? 0} onRate={(stars) => vote.mutate(stars)} disabled={vote.isPending} />
      </div>
    </Panel>
  );
}
