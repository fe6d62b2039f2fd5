import { mdiCheckCircle } from '@mdi/js';
import { useState } from 'react';
import { Navigate, useParams } from 'react-router';
import { toast } from 'react-toastify';
import type { CollectionImage, SeriesImages } from '@shoko-ts/contract';
import { imageUrl } from '@/api/images';
import { useSeriesImages, useSetPreferredImage, useUnsetPreferredImage } from '@/api/series';
import { useIsAdmin } from '@/api/users';
import { Button } from '@/components/Button';
import { Icon } from '@/components/Icon';
import { EmptyNote, ToolbarPanel } from '@/components/Panel';
import { QueryContent } from '@/components/QueryContent';
import { NavTabs } from '@/components/Tabs';
import { useSeriesContext } from './seriesContext';

const TYPES = {
  posters: { label: 'Posters', list: 'Posters', type: 'Poster', size: 'h-[270px] w-[180px]' },
  backdrops: { label: 'Backdrops', list: 'Backdrops', type: 'Backdrop', size: 'h-[169px] w-[300px]' },
  logos: { label: 'Logos', list: 'Logos', type: 'Logo', size: 'h-[120px] w-[300px]' },
} as const satisfies Record<string, { label: string; list: keyof SeriesImages; type: string; size: string }>;
type ImageTab = keyof typeof TYPES;

const keyOf = (image: CollectionImage) => `${image.Source}-${image.ID}`;

/** Images: one route per type; click an image to select it, then set it as the preferred one. */
export default function ImagesTab() {
  const { imageType } = useParams();
  if (!imageType || !(imageType in TYPES)) return <Navigate to="../images/posters" replace />;
  return <ImagesOfType key={imageType} tab={imageType as ImageTab} />;
}

function ImagesOfType({ tab }: { tab: ImageTab }) {
  const { seriesId } = useSeriesContext();
  const images = useSeriesImages(seriesId);
  const setPreferred = useSetPreferredImage(seriesId);
  const unsetPreferred = useUnsetPreferredImage(seriesId);
  const [selectedKey, setSelectedKey] = useState<string | null>(null);
  const config = TYPES[tab];
  const list = images.data?.[config.list] ?? [];
  const selected = list.find((image) => keyOf(image) === selectedKey) ?? null;
  const preferred = list.find((image) => image.Preferred);
  const isAdmin = useIsAdmin();
  const apply = () => {
    if (!selected) return;
    setPreferred.mutate(
      { type: config.type, id: selected.ID, source: selected.Source },
      { onSuccess: () => toast.success(`${config.type} set as preferred!`) },
    );
  };

  return (
    <div className="flex flex-col gap-3">
      <ToolbarPanel>
        <NavTabs
          label="Image types"
          tone="quiet"
          tabs={Object.entries(TYPES).map(([path, { label }]) => ({
            to: `../images/${path}`,
            label: (
              <>
                {label} {images.data && <span className="text-xs">({images.data[TYPES[path as ImageTab].list].length})</span>}
              </>
            ),
          }))}
        />
        {isAdmin && (
          <div className="flex flex-wrap gap-2 sm:ml-auto">
            {preferred && (
              <Button variant="ghost" onClick={() => unsetPreferred.mutate(config.type)} busy={unsetPreferred.isPending}>
                Reset To Default
              </Button>
            )}
            <Button onClick={apply} disabled={!selected || selected.Preferred} busy={setPreferred.isPending}>
              Set As Preferred
            </Button>
          </div>
        )}
      </ToolbarPanel>
      <QueryContent
        query={images}
        empty={list.length === 0 && <EmptyNote testId="images-empty">No {config.label.toLowerCase()} found!</EmptyNote>}
      >
        {() => (
          <div className="flex flex-wrap gap-4" role="listbox" aria-label={config.label} aria-multiselectable={false}>
            {list.map((image) => {
              const isSelected = keyOf(image) === selectedKey;
              return (
                <button
                  key={keyOf(image)}
                  type="button"
                  role="option"
                  aria-selected={isSelected}
                  aria-label={`${image.Source} ${config.type} ${image.ID}${image.Preferred ? ' (preferred)' : ''}`}
                  onClick={() => setSelectedKey(isSelected ? null : keyOf(image))}
                  className={`relative flex flex-col overflow-hidden rounded-lg border-2 bg-panel ${isSelected ? 'border-primary' : 'border-transparent hover:border-border'}`}
                >
                  <img src={imageUrl(image)} alt="" loading="lazy" className={`${config.size} bg-panel-alt object-contain`} />
                  <span className="flex items-center justify-between gap-2 px-2 py-1 text-xs text-muted">
                    <span>
                      {image.Source}
                      {image.Width && image.Height ? ` · ${image.Width}×${image.Height}` : ''}
                    </span>
                    {image.Preferred && (
                      <span className="inline-flex items-center gap-1 font-semibold text-success">
                        <Icon path={mdiCheckCircle} size={0.55} /> Preferred
                      </span>
                    )}
                  </span>
                </button>
              );
            })}
          </div>
        )}
      </QueryContent>
    </div>
  );
}
