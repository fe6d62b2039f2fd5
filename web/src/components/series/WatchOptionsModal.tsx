import type { EpisodeFilters } from '@/api/series';
import { useSetEpisodesWatched, useSetFilteredWatched } from '@/api/series';
import { Button } from '@/components/Button';
import { Modal, ModalFooter } from '@/components/Modal';

interface WatchOptionsModalProps {
  seriesId: number;
  filters: EpisodeFilters;
  /** Episodes the filters currently match. */
  total: number;
  selected: number[];
  open: boolean;
  onClose: () => void;
}

/** Watch Options: mark the selected episodes, or every episode the filters match, watched or unwatched. */
export function WatchOptionsModal({ seriesId, filters, total, selected, open, onClose }: WatchOptionsModalProps) {
  const filtered = useSetFilteredWatched(seriesId);
  const byId = useSetEpisodesWatched(seriesId);
  const busy = filtered.isPending || byId.isPending;
  const markFiltered = (watched: boolean) => filtered.mutate({ filters, watched }, { onSuccess: onClose });
  const markSelected = (watched: boolean) => byId.mutate({ episodeIds: selected, watched }, { onSuccess: onClose });
  return (
    <Modal open={open} onClose={onClose} title="Watch Options" footer={<ModalFooter onCancel={onClose} cancelLabel="Close" />}>
      <section className="flex flex-col gap-2">
        <h3 className="font-semibold">
          Selected Episodes <span className="text-muted">({selected.length})</span>
        </h3>
        <div className="flex flex-wrap gap-2">
          <Button disabled={!selected.length || busy} onClick={() => markSelected(true)}>
            Mark Selected Watched
          </Button>
          <Button variant="secondary" disabled={!selected.length || busy} onClick={() => markSelected(false)}>
            Mark Selected Unwatched
          </Button>
        </div>
      </section>
      <section className="flex flex-col gap-2">
        <h3 className="font-semibold">
          Filtered Episodes <span className="text-muted">({total})</span>
        </h3>
        <p className="text-xs text-muted">Every episode matching the current filters, including those not loaded yet.</p>
        <div className="flex flex-wrap gap-2">
          <Button disabled={!total || busy} onClick={() => markFiltered(true)}>
            Mark All Watched
          </Button>
          <Button variant="secondary" disabled={!total || busy} onClick={() => markFiltered(false)}>
            Mark All Unwatched
          </Button>
        </div>
      </section>
    </Modal>
  );
}
