import { useState } from 'react';
import { toast } from 'react-toastify';
import { useSetPreferredOrdering, useTmdbOrderings } from '@/api/tmdb';
import { Modal, ModalFooter } from '@/components/Modal';
import { QueryContent } from '@/components/QueryContent';

/** TMDb Show Settings: which episode ordering of the show is preferred. Only an ordering not in use can be chosen. */
export function TmdbShowSettingsModal({ showId, open, onClose }: { showId: number; open: boolean; onClose: () => void }) {
  const orderings = useTmdbOrderings(showId, open);
  const setPreferred = useSetPreferredOrdering(showId);
  const [selected, setSelected] = useState<string | null>(null);
  const choice = orderings.data?.find((ordering) => ordering.OrderingID === selected);
  const canSave = !!choice && !choice.InUse;

  const close = () => {
    setSelected(null);
    onClose();
  };
  const save = () => {
    if (!choice) return;
    setPreferred.mutate(choice.OrderingID, {
      onSuccess: () => {
        toast.success('Ordering has been updated!');
        close();
      },
      onError: () => toast.error('Failed to update ordering!'),
    });
  };

  return (
    <Modal
      open={open}
      onClose={close}
      title="TMDb Show Settings"
      footer={<ModalFooter onCancel={close} action="Save" onAction={save} disabled={!canSave} busy={setPreferred.isPending} />}
    >
      <h3 className="font-semibold">Ordering</h3>
      <QueryContent query={orderings}>
        {(orderingList) => (
          <div role="radiogroup" aria-label="Ordering" className="flex flex-col gap-2">
            {orderingList.map((ordering) => {
              const checked = selected === ordering.OrderingID;
              return (
                <button
                  key={ordering.OrderingID}
                  type="button"
                  role="radio"
                  aria-checked={checked}
                  aria-disabled={ordering.InUse || undefined}
                  onClick={() => !ordering.InUse && setSelected(ordering.OrderingID)}
                  className={`flex items-center justify-between gap-3 rounded-md border px-3 py-2 text-left ${checked ? 'border-primary bg-primary/10' : 'border-border'} ${ordering.InUse ? 'cursor-not-allowed opacity-70' : 'hover:border-primary'}`}
                >
                  <span className="min-w-0">
                    <span className="block font-semibold">{ordering.OrderingName}</span>
                    <span className="block text-xs text-muted">
                      {ordering.OrderingType ?? 'Default'} · {ordering.EpisodeCount} episodes
                      {ordering.HiddenEpisodeCount > 0 ? ` (${ordering.HiddenEpisodeCount} hidden)` : ''}
                    </span>
                  </span>
                  {ordering.InUse && (
                    <span className="shrink-0 rounded bg-primary px-2 py-0.5 text-xs font-semibold text-on-primary">In Use</span>
                  )}
                </button>
              );
            })}
          </div>
        )}
      </QueryContent>
    </Modal>
  );
}
