import { mdiDeleteOutline, mdiFolderOutline } from '@mdi/js';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import type { Filter } from '@shoko-ts/contract';
import { useDeletePreset, usePresetChildren, usePresets } from '@/api/filters';
import { Button } from '@/components/Button';
import { Icon } from '@/components/Icon';
import { Modal } from '@/components/Modal';
import { SearchBox } from '@/components/SearchBox';
import { Spinner } from '@/components/Spinner';
import { TabList } from '@/components/Tabs';

/** Saved filters: a Filters tab for the top level plus one tab per directory, with search. */
export function FilterPresetsModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const presets = usePresets(open);
  const [tab, setTab] = useState<number | null>(null);
  const [search, setSearch] = useState('');
  const directories = (presets.data?.List ?? []).filter((f) => f.IsDirectory);
  const children = usePresetChildren(tab ?? 0, open && tab !== null);
  const list = tab === null ? (presets.data?.List ?? []).filter((f) => !f.IsDirectory) : (children.data?.List ?? []);
  const shown = list.filter((f) => f.Name.toLowerCase().includes(search.trim().toLowerCase()));
  const loading = tab === null ? presets.isPending : children.isPending;
  const navigate = useNavigate();
  const remove = useDeletePreset();
  const openPreset = (filter: Filter) => {
    onClose();
    navigate(`/collection/filter/${filter.IDs.ID}`);
  };
  return (
    <Modal open={open} onClose={onClose} title="Filter Presets" size="lg">
      <TabList
        label="Preset directories"
        tabClassName="flex items-center gap-1"
        selected={tab}
        onSelect={setTab}
        tabs={[
          { key: null, label: 'Filters' },
          ...directories.map((d) => ({
            key: d.IDs.ID as number | null,
            label: (
              <>
                <Icon path={mdiFolderOutline} size={0.6} />
                {d.Name}
              </>
            ),
          })),
        ]}
      />
      <SearchBox label="Search presets" value={search} onChange={setSearch} className="" onPanel />
      <div className="flex max-h-[50vh] min-h-32 flex-col gap-1 overflow-y-auto">
        {loading ? (
          <Spinner />
        ) : shown.length === 0 ? (
          <p className="text-muted">No presets found.</p>
        ) : (
          shown.map((filter) => (
            <div key={filter.IDs.ID} className="flex items-center gap-2 rounded-md px-2 py-1 hover:bg-panel-alt">
              <button
                type="button"
                className="flex min-w-0 flex-1 items-center justify-between gap-2 text-left"
                onClick={() => openPreset(filter)}
              >
                <span className="truncate font-semibold">{filter.Name}</span>
                <span className="shrink-0 text-xs text-muted">{filter.Size}</span>
              </button>
              <Button
                variant="ghost"
                className="px-2"
                aria-label={`Delete ${filter.Name}`}
                disabled={filter.IsLocked || remove.isPending}
                onClick={() => remove.mutate(filter.IDs.ID)}
              >
                <Icon path={mdiDeleteOutline} size={0.7} />
              </Button>
            </div>
          ))
        )}
      </div>
    </Modal>
  );
}
