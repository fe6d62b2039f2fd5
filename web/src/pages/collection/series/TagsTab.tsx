import { mdiPencil } from '@mdi/js';
import { useMemo, useState } from 'react';
import type { Tag } from '@shoko-ts/contract';
import { useSeriesTags } from '@/api/series';
import { useIsAdmin } from '@/api/users';
import { Button } from '@/components/Button';
import { Checkbox } from '@/components/Checkbox';
import { Icon } from '@/components/Icon';
import { Modal } from '@/components/Modal';
import { EmptyNote, ToolbarPanel } from '@/components/Panel';
import { SearchBox } from '@/components/SearchBox';
import { QueryContent } from '@/components/QueryContent';
import { CustomTagsModal } from '@/components/series/CustomTagsModal';
import { useSeriesContext } from './seriesContext';

const NO_DESCRIPTION = 'Tag Description Not Available.';
type Source = 'All' | 'AniDB' | 'User';
type Sort = 'Weight' | 'Name';

const selectClass = 'rounded-md border border-border bg-panel-alt px-2 py-2 text-sm focus:border-primary focus:outline-none';
const isSpoiler = (tag: Tag) => tag.IsSpoiler || !!tag.IsLocalSpoiler;

/** Tags: AniDB and custom tags with search, source filter, spoilers toggle and sort; click one for its details. */
export default function TagsTab() {
  const { seriesId } = useSeriesContext();
  const tags = useSeriesTags(seriesId);
  const [search, setSearch] = useState('');
  const [source, setSource] = useState<Source>('All');
  const [sort, setSort] = useState<Sort>('Weight');
  const [spoilers, setSpoilers] = useState(false);
  const [details, setDetails] = useState<Tag | null>(null);
  const [editing, setEditing] = useState(false);
  const isAdmin = useIsAdmin();

  const query = search.trim().toLowerCase();
  const shown = useMemo(() => {
    const list = (tags.data ?? []).filter(
      (tag) =>
        (source === 'All' || tag.Source === source) && (spoilers || !isSpoiler(tag)) && (!query || tag.Name.toLowerCase().includes(query)),
    );
    return sort === 'Name' ? [...list].sort((a, b) => a.Name.localeCompare(b.Name)) : list;
  }, [tags.data, source, spoilers, query, sort]);

  return (
    <div className="flex flex-col gap-3">
      <ToolbarPanel label="Tag filters">
        <SearchBox label="Search tags" value={search} onChange={setSearch} className="sm:w-64" onPanel />
        <select
          aria-label="Tag source"
          className={selectClass}
          value={source}
          onChange={(event) => setSource(event.target.value as Source)}
        >
          <option value="All">All Sources</option>
          <option value="AniDB">AniDB</option>
          <option value="User">User</option>
        </select>
        <select aria-label="Sort tags" className={selectClass} value={sort} onChange={(event) => setSort(event.target.value as Sort)}>
          <option value="Weight">Sort by Weight</option>
          <option value="Name">Sort by Name</option>
        </select>
        <Checkbox label="Show Spoilers" checked={spoilers} onChange={setSpoilers} />
        {isAdmin && (
          <Button variant="secondary" className="sm:ml-auto" onClick={() => setEditing(true)}>
            <Icon path={mdiPencil} size={0.75} /> Edit Custom Tags
          </Button>
        )}
      </ToolbarPanel>
      <QueryContent
        query={tags}
        empty={
          shown.length === 0 && <EmptyNote testId="tags-empty">{query ? `No tags match ${search.trim()}.` : 'No tags to show.'}</EmptyNote>
        }
      >
        {() => (
          <div className="grid grid-cols-1 gap-3 md:grid-cols-2 xl:grid-cols-3" role="list" aria-label="Tags">
            {shown.map((tag) => (
              <div key={`${tag.Source}-${tag.ID}`} role="listitem" className="flex">
                <button
                  type="button"
                  onClick={() => setDetails(tag)}
                  className="flex flex-1 flex-col gap-2 rounded-lg border border-border bg-panel p-4 text-left hover:border-primary"
                  data-testid="tag-card"
                >
                  <span className="flex items-center justify-between gap-2">
                    <span className="font-semibold">{tag.Name}</span>
                    <span
                      className={`rounded px-1.5 py-0.5 text-[11px] font-semibold ${tag.Source === 'User' ? 'bg-primary text-on-primary' : 'bg-panel-alt text-muted'}`}
                    >
                      {tag.Source}
                    </span>
                  </span>
                  <span className="line-clamp-3 text-sm text-muted">{tag.Description || NO_DESCRIPTION}</span>
                  {isSpoiler(tag) && <span className="text-xs font-semibold text-danger">Spoiler</span>}
                </button>
              </div>
            ))}
          </div>
        )}
      </QueryContent>
      <Modal
        open={details !== null}
        onClose={() => setDetails(null)}
        title="Tag Details"
        footer={<Button onClick={() => setDetails(null)}>Close</Button>}
      >
        {details && (
          <div className="flex flex-col gap-3" data-testid="tag-details">
            <div className="flex flex-wrap items-center gap-2">
              <span className="text-base font-semibold">{details.Name}</span>
              <span className="rounded bg-panel-alt px-1.5 py-0.5 text-xs text-muted">{details.Source}</span>
              {isSpoiler(details) && <span className="text-xs font-semibold text-danger">Spoiler</span>}
            </div>
            <p className="whitespace-pre-line text-muted">{details.Description || NO_DESCRIPTION}</p>
            {details.Weight !== undefined && details.Weight > 0 && <p className="text-xs text-muted">Weight: {details.Weight}</p>}
            {details.Source === 'AniDB' && (
              <a href={`https://anidb.net/tag/${details.ID}`} target="_blank" rel="noreferrer" className="text-primary hover:underline">
                View on AniDB
              </a>
            )}
          </div>
        )}
      </Modal>
      <CustomTagsModal seriesId={seriesId} open={editing} onClose={() => setEditing(false)} />
    </div>
  );
}
