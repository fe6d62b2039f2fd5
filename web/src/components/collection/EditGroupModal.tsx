import { mdiCheck, mdiClose, mdiPencil, mdiStar, mdiStarOutline } from '@mdi/js';
import { useState } from 'react';
import { api, isApiError } from '@/api/client';
import { useGroup, useGroupSeries, useMoveSeriesToNewGroup, useRenameGroup, useSetPreferredSeries } from '@/api/collection';
import { Button } from '@/components/Button';
import { Icon } from '@/components/Icon';
import { Modal } from '@/components/Modal';
import { Spinner } from '@/components/Spinner';
import { TabList } from '@/components/Tabs';

const TABS = ['Name', 'Series', 'File Actions'] as const;
type Tab = (typeof TABS)[number];
/** The Relocate endpoint appeared with this server version. */
const RELOCATE_VERSION = '5.1.0';

export function EditGroupModal({ groupId, open, onClose }: { groupId: number; open: boolean; onClose: () => void }) {
  const [tab, setTab] = useState<Tab>('Name');
  const group = useGroup(open ? groupId : null);
  const series = useGroupSeries(open ? groupId : null);
  return (
    <Modal open={open} onClose={onClose} title="Edit Group" size="lg">
      <TabList label="Edit group sections" tabs={TABS.map((name) => ({ key: name, label: name }))} selected={tab} onSelect={setTab} />
      {group.isPending || series.isPending ? (
        <Spinner />
      ) : group.isError || !group.data ? (
        <p className="text-danger">Group &amp; Series data could not be loaded!</p>
      ) : tab === 'Name' ? (
        <NameTab groupId={groupId} name={group.data.Name} />
      ) : tab === 'Series' ? (
        series.isError ? (
          <p className="text-danger">Error, please refresh!</p>
        ) : (
          <SeriesTab groupId={groupId} preferred={group.data.IDs.PreferredSeries ?? group.data.IDs.MainSeries} series={series.data ?? []} />
        )
      ) : (
        <FileActionsTab groupId={groupId} />
      )}
    </Modal>
  );
}

/** View → edit → confirm (saves only a changed name) or cancel (restores the shown name). */
function NameTab({ groupId, name }: { groupId: number; name: string }) {
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(name);
  const rename = useRenameGroup();
  const confirm = () => {
    const next = draft.trim();
    if (!next || next === name) {
      setEditing(false);
      setDraft(name);
      return;
    }
    rename.mutate({ id: groupId, name: next }, { onSuccess: () => setEditing(false) });
  };
  const cancel = () => {
    setDraft(name);
    setEditing(false);
    rename.reset();
  };
  return (
    <div className="flex flex-col gap-2">
      <span className="font-semibold">Group Name</span>
      <div className="flex items-center gap-2">
        {editing ? (
          <input
            aria-label="Group name"
            // eslint-disable-next-line jsx-a11y/no-autofocus -- the name field appears because the user pressed Edit; focus goes where they will type
            autoFocus
            value={draft}
            onChange={(event) => setDraft(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === 'Enter') confirm();
              if (event.key === 'Escape') {
                event.stopPropagation();
                cancel();
              }
            }}
            className="min-w-0 flex-1 rounded-md border border-primary bg-panel-alt px-3 py-2"
          />
        ) : (
          <span className="min-w-0 flex-1 truncate rounded-md border border-border bg-panel-alt px-3 py-2" data-testid="group-name-value">
            {name}
          </span>
        )}
        {editing ? (
          <>
            <Button variant="ghost" className="px-2" aria-label="Confirm name" busy={rename.isPending} onClick={confirm}>
              <Icon path={mdiCheck} size={0.8} className="text-primary" />
            </Button>
            <Button variant="ghost" className="px-2" aria-label="Cancel rename" onClick={cancel}>
              <Icon path={mdiClose} size={0.8} />
            </Button>
          </>
        ) : (
          <Button
            variant="ghost"
            className="px-2"
            aria-label="Edit name"
            onClick={() => {
              setDraft(name);
              setEditing(true);
            }}
          >
            <Icon path={mdiPencil} size={0.8} />
          </Button>
        )}
      </div>
      {rename.error && <p className="text-danger">{rename.error.message}</p>}
    </div>
  );
}

function SeriesTab({
  groupId,
  preferred,
  series,
}: {
  groupId: number;
  preferred: number;
  series: Array<{ IDs: { ID: number }; Name: string }>;
}) {
  const setPreferred = useSetPreferredSeries();
  const move = useMoveSeriesToNewGroup();
  const error = setPreferred.error ?? move.error;
  return (
    <div className="flex flex-col gap-2">
      <ul className={`flex max-h-[50vh] flex-col gap-1 overflow-y-auto ${series.length > 9 ? 'pr-2' : ''}`} aria-label="Group series">
        {series.map((s) => (
          <li key={s.IDs.ID} className="flex items-center gap-2 rounded-md bg-panel-alt px-3 py-2">
            <button
              type="button"
              aria-label={s.IDs.ID === preferred ? `${s.Name} is the main series` : `Set ${s.Name} as main series`}
              disabled={s.IDs.ID === preferred || setPreferred.isPending}
              onClick={() => setPreferred.mutate({ id: groupId, seriesId: s.IDs.ID })}
              className="text-primary disabled:cursor-default"
            >
              <Icon path={s.IDs.ID === preferred ? mdiStar : mdiStarOutline} size={0.8} />
            </button>
            <span className="min-w-0 flex-1 truncate">{s.Name}</span>
            <Button
              variant="secondary"
              className="px-2 py-1 text-xs"
              disabled={series.length < 2 || move.isPending}
              onClick={() => move.mutate(s.IDs.ID)}
            >
              Move to new group
            </Button>
          </li>
        ))}
      </ul>
      {error && <p className="text-danger">{error.message}</p>}
    </div>
  );
}

function FileActionsTab({ groupId }: { groupId: number }) {
  const [state, setState] = useState<'idle' | 'busy' | 'done' | 'unsupported' | 'failed'>('idle');
  const relocate = async () => {
    setState('busy');
    try {
      const series = await api.get<Array<{ IDs: { ID: number } }>>(`Group/${groupId}/Series`, { query: { recursive: true } });
      for (const s of series) await api.post<void>(`Series/${s.IDs.ID}/File/Relocate`, undefined);
      setState('done');
    } catch (error) {
      setState(isApiError(error, 404) || isApiError(error, 405) ? 'unsupported' : 'failed');
    }
  };
  return (
    <div className="flex flex-col gap-3">
      <p className="text-muted">
        Rename and move every file of this group's series with the default renamer. The server does this only while Rename on import or Move
        on import is enabled in Settings › Import.
      </p>
      <div>
        <Button variant="secondary" busy={state === 'busy'} onClick={() => void relocate()} disabled={state === 'unsupported'}>
          Rename/Move Files
        </Button>
      </div>
      {state === 'done' && <p className="text-primary">Files have been queued for renaming and moving.</p>}
      {state === 'unsupported' && <p className="text-danger">This feature requires server version &gt;= {RELOCATE_VERSION}</p>}
      {state === 'failed' && <p className="text-danger">Renaming/moving the files failed.</p>}
    </div>
  );
}
