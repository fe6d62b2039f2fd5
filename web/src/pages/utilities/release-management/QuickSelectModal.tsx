import { useState } from 'react';
import { toast } from 'react-toastify';
import type { SeriesWithEpisodeCount } from '@shoko-ts/contract';
import { useQuickSelect, useQuickSelectDelete, type QuickSelectGroup, type ReleaseToggles } from '@/api/releaseManagement';
import { Modal, ModalFooter } from '@/components/Modal';
import { ConfirmDeleteModal } from './ConfirmDeleteModal';
import { groupRange, planQuickSelect } from './selection';

interface Props {
  type: 'MultipleReleases' | 'DuplicateFiles';
  series: SeriesWithEpisodeCount;
  toggles: ReleaseToggles;
  onClose: () => void;
  onDone: () => void;
}

function describe(group: QuickSelectGroup, duplicates: boolean): { title: string; details: string } {
  if (duplicates) {
    return {
      title: group.FileLocation || '(import folder root)',
      details: [`Import folder ${group.ImportFolder ?? '?'}`, `${group.Locations?.length ?? 0} copies`].join(' · '),
    };
  }
  const title = group.GroupName === 'None' ? 'Manual link' : (group.GroupName ?? 'Unknown');
  const languages = (label: string, list?: string[]) => (list?.length ? `${label}: ${list.join(', ')}` : null);
  const details = [
    group.FileVersion ? `v${group.FileVersion}` : null,
    group.FileSource,
    group.VideoCodecs,
    group.VideoResolution,
    languages('Audio', group.AudioLanguages),
    languages('Subs', group.SubtitleLanguages),
    group.VideoHasChapters ? 'Chapters' : null,
  ];
  return { title, details: details.filter(Boolean).join(' · ') };
}

/** Quick Select: the series' files grouped by release (multiples) or by folder (duplicates); ticked groups are deleted. */
export function QuickSelectModal({ type, series, toggles, onClose, onDone }: Props) {
  const data = useQuickSelect(type, series.IDs.ID, toggles, true);
  const remove = useQuickSelectDelete();
  const [chosen, setChosen] = useState<ReadonlySet<number>>(new Set());
  const [confirming, setConfirming] = useState(false);
  const duplicates = type === 'DuplicateFiles';
  const groups = data.data?.groups ?? [];
  const plan = data.data ? planQuickSelect(type, groups, chosen, data.data.episodes) : null;
  const toggle = (index: number) => {
    const next = new Set(chosen);
    if (!next.delete(index)) next.add(index);
    setChosen(next);
  };

  if (confirming && plan) {
    const skipped = plan.skipped
      ? `${plan.skipped} ${duplicates ? 'files keep one copy' : 'episodes keep their files'}, as every one of them was chosen.`
      : undefined;
    return (
      <ConfirmDeleteModal
        paths={plan.removedPaths}
        note={skipped}
        busy={remove.isPending}
        onCancel={() => setConfirming(false)}
        onConfirm={() =>
          remove.mutate(
            { fileIds: plan.changes.deleteFiles, locationIds: plan.changes.deleteLocations },
            {
              onSuccess: () => {
                toast.success('Successful!');
                onDone();
                onClose();
              },
              onError: () => setConfirming(false),
            },
          )
        }
      />
    );
  }

  return (
    <Modal
      open
      onClose={onClose}
      size="lg"
      title={`Quick Select — ${series.Name}`}
      footer={
        <ModalFooter
          onCancel={onClose}
          action="Confirm"
          onAction={() => setConfirming(true)}
          disabled={!plan || !!plan.blocked}
          title={plan?.blocked ?? undefined}
        />
      }
    >
      <p className="text-muted">
        {duplicates
          ? 'Copies are grouped by import folder and folder. Tick Delete to remove every copy in a group.'
          : 'Files are grouped by release. Tick Delete to remove the group’s files of the listed episodes.'}
      </p>
      {data.isPending && <p className="p-4 text-center text-muted">Loading groups…</p>}
      {data.error && <p className="p-4 text-center font-semibold text-danger">{data.error.message}</p>}
      {data.data && !groups.length && <p className="p-4 text-center text-muted">No groups found.</p>}
      <ul className="flex max-h-[50vh] flex-col gap-2 overflow-auto" aria-label="Release groups">
        {groups.map((group, index) => {
          const { title, details } = describe(group, duplicates);
          return (
            <li key={index} className="flex items-center gap-3 rounded-md border border-border p-2" data-testid="quick-select-group">
              <div className="min-w-0 flex-1">
                <div className="truncate font-semibold">{title}</div>
                <div className="truncate text-xs text-muted">{[groupRange(group), details].filter(Boolean).join(' · ')}</div>
              </div>
              <label className="flex shrink-0 cursor-pointer items-center gap-2 text-sm font-semibold">
                <input
                  type="checkbox"
                  checked={chosen.has(index)}
                  onChange={() => toggle(index)}
                  aria-label={`Delete ${title}`}
                  className="size-4 accent-[var(--color-danger)]"
                />
                Delete
              </label>
            </li>
          );
        })}
      </ul>
    </Modal>
  );
}
