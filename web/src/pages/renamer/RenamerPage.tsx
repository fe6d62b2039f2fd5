import {
  mdiChevronDown,
  mdiChevronUp,
  mdiCogOutline,
  mdiDeleteOutline,
  mdiFileDocumentPlusOutline,
  mdiPlaylistRemove,
  mdiRefresh,
} from '@mdi/js';
import { useEffect, useMemo, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { toast } from 'react-toastify';
import type { File, RelocationResult, RenamerSetting } from '@shoko-ts/contract';
import { api } from '@/api/client';
import { useRelocateFiles, useRenamerConfigs, useRenamerPreview, useRenamers } from '@/api/renamer';
import { getSetting, useSettings } from '@/api/settings';
import { Button } from '@/components/Button';
import { Icon } from '@/components/Icon';
import { Panel } from '@/components/Panel';
import { Spinner } from '@/components/Spinner';
import { Toggle } from '@/components/Toggle';
import { AddFilesModal } from '@/components/renamer/AddFilesModal';
import { ConfigPanel } from '@/components/renamer/ConfigPanel';
import { PreviewTable } from '@/components/renamer/PreviewTable';
import { renameDisabledReason, settingsEqual, settingsOf } from '@/components/renamer/renamerState';
import { toggledIn } from '@/lib/sets';
import { useDebouncedValue } from '@/lib/useDebouncedValue';

/** Auto-preview waits this long after the last change (SPEC §9). */
const PREVIEW_DEBOUNCE_MS = 500;

export default function RenamerPage() {
  const renamers = useRenamers();
  const configs = useRenamerConfigs();
  const serverSettings = useSettings();
  const defaultName = getSetting<string | null>(serverSettings.data, 'Plugins.Renamer.DefaultRenamer') ?? null;

  const [files, setFiles] = useState<File[]>([]);
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  const [move, setMove] = useState(false);
  const [rename, setRename] = useState(true);
  const [showSettings, setShowSettings] = useState(true);
  const [adding, setAdding] = useState(false);
  const [renamed, setRenamed] = useState<ReadonlyMap<number, RelocationResult>>(new Map());

  const [configName, setConfigName] = useState<string | null>(null);
  const config = configs.data?.find((c) => c.Name === configName) ?? configs.data?.find((c) => c.Name === defaultName) ?? configs.data?.[0];
  const renamer = renamers.data?.find((r) => r.RenamerID === config?.RenamerID);
  const saved = useMemo(() => settingsOf(config), [config]);
  const [draft, setDraft] = useState<{ config: string; settings: RenamerSetting[] } | null>(null);
  const settings = draft && draft.config === config?.Name ? draft.settings : saved;
  const edited = !settingsEqual(settings, saved);
  // A saved config becomes the baseline again.
  if (draft && settingsEqual(draft.settings, saved)) setDraft(null);

  const previewRequest = useMemo(
    () => (config && files.length ? { fileIds: files.map((f) => f.ID), move, rename, renamerId: config.RenamerID, settings } : null),
    [config, files, move, rename, settings],
  );
  const debouncedRequest = useDebouncedValue(previewRequest, PREVIEW_DEBOUNCE_MS);
  const preview = useRenamerPreview(debouncedRequest);
  const relocate = useRelocateFiles();

  const disabledReason = renameDisabledReason({ renaming: relocate.isPending, edited, fileCount: files.length, move, rename });

  const addFiles = (added: File[]) => {
    setFiles((current) => {
      const known = new Set(current.map((f) => f.ID));
      return [...current, ...added.filter((f) => !known.has(f.ID) && (known.add(f.ID), true))];
    });
    setRenamed(new Map());
  };
  // Other pages (File Search, Unrecognized Files) send their selection here as navigation state `{ fileIds }`.
  const location = useLocation();
  const navigate = useNavigate();
  const handedOver = (location.state as { fileIds?: unknown } | null)?.fileIds;
  useEffect(() => {
    if (!Array.isArray(handedOver) || !handedOver.length) return;
    // Forget the hand-over at once, so a reload or a second render does not add the files again.
    navigate(location.pathname, { replace: true, state: null });
    const ids = handedOver.filter((id): id is number => Number.isSafeInteger(id));
    void Promise.allSettled(ids.map((id) => api.get<File>(`File/${id}`))).then((results) => {
      const found = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
      if (found.length) addFiles(found);
      if (found.length < ids.length) toast.error(`${ids.length - found.length} of the selected files could not be loaded.`);
    });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- runs once per hand-over
  }, [handedOver]);
  const toggle = (id: number) => setSelected((current) => toggledIn(current, id));

  const runRename = () => {
    if (!config) return;
    relocate.mutate(
      { configName: config.Name, fileIds: files.map((f) => f.ID), move, rename },
      {
        onSuccess: (results) => {
          setRenamed(new Map(results.map((r) => [r.FileID, r])));
          const failed = results.filter((r) => !r.IsSuccess).length;
          if (failed) toast.error(`${failed} of ${results.length} files could not be renamed.`);
          else toast.success(`Renamed ${results.length} files.`);
          void preview.refetch();
        },
        onError: (error) => toast.error(error.message),
      },
    );
  };

  if (renamers.isPending || configs.isPending) {
    return (
      <div className="flex h-64 items-center justify-center">
        <Spinner />
      </div>
    );
  }
  if (renamers.isError || configs.isError) {
    return <div className="p-6 text-danger">Could not load the renamer: {(renamers.error ?? configs.error)?.message}</div>;
  }

  return (
    <div className="flex flex-col gap-4 p-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-xl font-semibold">Renamer</h1>
        <div className="flex flex-wrap items-center gap-2">
          <Button variant="ghost" onClick={() => setShowSettings((s) => !s)} aria-pressed={showSettings}>
            <Icon path={mdiCogOutline} size={0.8} />
            Settings
            <Icon path={showSettings ? mdiChevronUp : mdiChevronDown} size={0.8} />
          </Button>
          <Button variant="secondary" onClick={() => setAdding(true)}>
            <Icon path={mdiFileDocumentPlusOutline} size={0.8} />
            Add Files
          </Button>
          <span title={disabledReason ?? undefined}>
            <Button disabled={!!disabledReason} busy={relocate.isPending} onClick={runRename}>
              Rename Files
            </Button>
          </span>
        </div>
      </div>

      <div
        className="flex flex-wrap items-center gap-x-6 gap-y-2 rounded-xl border border-border bg-panel px-4 py-2"
        role="toolbar"
        aria-label="Renamer menu"
      >
        <Button variant="ghost" disabled={!files.length} onClick={() => void preview.refetch()}>
          <Icon path={mdiRefresh} size={0.8} />
          Refresh
        </Button>
        <Button
          variant="ghost"
          disabled={!selected.size}
          onClick={() => {
            setFiles((current) => current.filter((f) => !selected.has(f.ID)));
            setSelected(new Set());
          }}
        >
          <Icon path={mdiPlaylistRemove} size={0.8} />
          Remove selected
        </Button>
        <Button
          variant="ghost"
          disabled={!files.length}
          onClick={() => {
            setFiles([]);
            setSelected(new Set());
            setRenamed(new Map());
          }}
        >
          <Icon path={mdiDeleteOutline} size={0.8} />
          Remove All
        </Button>
        <Toggle
          label="Move Files"
          checked={move}
          onChange={(value) => {
            setMove(value);
            setRenamed(new Map());
          }}
        />
        <Toggle
          label="Rename Files"
          checked={rename}
          onChange={(value) => {
            setRename(value);
            setRenamed(new Map());
          }}
        />
      </div>

      {showSettings && (
        <Panel title="Config">
          {configs.data.length === 0 ? <p className="text-sm text-muted">No configs yet. Create one with New.</p> : null}
          <ConfigPanel
            configs={configs.data}
            renamers={renamers.data}
            renamer={renamer}
            selected={config}
            onSelect={(name) => {
              setConfigName(name);
              setDraft(null);
            }}
            settings={settings}
            onSettingsChange={(next) => {
              if (!config) return;
              setDraft({ config: config.Name, settings: next });
              // Results of the last rename no longer describe what the edited config would do.
              setRenamed(new Map());
            }}
            edited={edited}
            serverSettings={serverSettings.data}
            defaultName={defaultName}
          />
        </Panel>
      )}

      <Panel
        title={
          <span className="flex items-center gap-2">
            Renamer Preview
            <span className="text-sm font-normal text-muted">
              {files.length} {files.length === 1 ? 'file' : 'files'}
            </span>
            {preview.isFetching && <Spinner size={0.8} />}
          </span>
        }
      >
        <PreviewTable files={files} preview={preview.data} renamed={renamed} selected={selected} onToggle={toggle} error={preview.error} />
      </Panel>

      {adding && <AddFilesModal onClose={() => setAdding(false)} onAdd={addFiles} />}
    </div>
  );
}
