import { useState } from 'react';
import { Modal, ModalFooter } from '@/components/Modal';
import { Toggle } from '@/components/Toggle';
import type { CollectionSettings } from './collectionSettings';

/** WebUI_Settings.collection: what poster and list views show. */
export function DisplaySettingsModal({
  open,
  onClose,
  settings,
  onSave,
}: {
  open: boolean;
  onClose: () => void;
  settings: CollectionSettings;
  onSave: (next: CollectionSettings) => void;
}) {
  const [draft, setDraft] = useState(settings);
  const set = <S extends 'poster' | 'list' | 'image'>(section: S, key: keyof CollectionSettings[S], value: boolean) =>
    setDraft((current) => ({ ...current, [section]: { ...current[section], [key]: value } }));
  const close = () => {
    setDraft(settings);
    onClose();
  };
  return (
    <Modal
      open={open}
      onClose={close}
      title="Display Settings"
      footer={
        <ModalFooter
          onCancel={close}
          action="Save"
          onAction={() => {
            onSave(draft);
            onClose();
          }}
        />
      }
    >
      <h3 className="font-semibold">Poster View</h3>
      <Toggle label="Show Episode Count" checked={draft.poster.showEpisodeCount} onChange={(v) => set('poster', 'showEpisodeCount', v)} />
      <Toggle
        label="Show Group Indicator"
        checked={draft.poster.showGroupIndicator}
        onChange={(v) => set('poster', 'showGroupIndicator', v)}
      />
      <Toggle
        label="Show Unwatched Count"
        checked={draft.poster.showUnwatchedCount}
        onChange={(v) => set('poster', 'showUnwatchedCount', v)}
      />
      <h3 className="font-semibold">List View</h3>
      <Toggle label="Show Item Type" checked={draft.list.showItemType} onChange={(v) => set('list', 'showItemType', v)} />
      <Toggle label="Show Group Indicator" checked={draft.list.showGroupIndicator} onChange={(v) => set('list', 'showGroupIndicator', v)} />
      <Toggle label="Show Top Tags" checked={draft.list.showTopTags} onChange={(v) => set('list', 'showTopTags', v)} />
      <Toggle label="Show Custom Tags" checked={draft.list.showCustomTags} onChange={(v) => set('list', 'showCustomTags', v)} />
      <h3 className="font-semibold">Images</h3>
      <Toggle label="Show Random Poster" checked={draft.image.showRandomPoster} onChange={(v) => set('image', 'showRandomPoster', v)} />
    </Modal>
  );
}
