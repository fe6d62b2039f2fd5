import { useState } from 'react';
import { mdiAlertOutline, mdiPlay } from '@mdi/js';
import { toast } from 'react-toastify';
import { ACTION_CATALOGUE, ActionGroups, type ActionEntry, type ActionGroup } from '@shoko-ts/contract';
import { useRunAction } from '@/api/actions';
import { useCurrentUser } from '@/api/users';
import { Button } from '@/components/Button';
import { Icon } from '@/components/Icon';
import { Modal, ModalFooter } from '@/components/Modal';
import { TabList } from '@/components/Tabs';

/** The toast after an action was accepted: the server's own line when it sent one. */
export function actionToast(entry: ActionEntry, response: unknown): string {
  return typeof response === 'string' && response.trim() ? response.trim() : `Running action "${entry.Name}"`;
}

function ActionRow({ entry, isAdmin }: { entry: ActionEntry; isAdmin: boolean }) {
  const run = useRunAction();
  const [confirming, setConfirming] = useState(false);
  // Every server action starts work for the whole server, so the server keeps them all for admins; unlinking Plex is
  // the caller's own account.
  const allowed = isAdmin || entry.Function.startsWith('/plex/');
  const start = () => {
    setConfirming(false);
    run.mutate(entry.Function, { onSuccess: (response) => toast.success(actionToast(entry, response)) });
  };
  return (
    <li className="flex flex-col gap-2 rounded-lg bg-background-alt px-3 py-2.5 sm:flex-row sm:items-center" data-testid="action">
      <div className="flex min-w-0 flex-1 flex-col">
        <span className="flex items-center gap-2 text-sm font-semibold">
          {entry.Name}
          {entry.Destructive && (
            <span
              className="inline-flex items-center gap-1 rounded-full border border-warning/40 px-2 text-xs text-warning"
              title="One-way: cannot be undone"
            >
              <Icon path={mdiAlertOutline} size={0.55} />
              One-way
            </span>
          )}
        </span>
        <span className="text-xs text-muted">{entry.Description}</span>
        {!allowed && <span className="text-xs text-muted">Only administrators can run this action.</span>}
      </div>
      {confirming ? (
        <div className="flex gap-2">
          <Button variant="ghost" onClick={() => setConfirming(false)}>
            Cancel
          </Button>
          <Button variant="danger" onClick={start}>
            Run Anyway
          </Button>
        </div>
      ) : (
        <Button
          variant="secondary"
          disabled={!allowed}
          busy={run.isPending}
          onClick={() => (entry.Destructive ? setConfirming(true) : start())}
          aria-label={`Run ${entry.Name}`}
        >
          <Icon path={mdiPlay} size={0.75} />
          Run
        </Button>
      )}
    </li>
  );
}

/** Server actions by tab (contract server.md §6.2); one-way actions ask to confirm first. */
export function ActionsModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [group, setGroup] = useState<ActionGroup>('Import');
  const { data: user } = useCurrentUser();
  const entries = ACTION_CATALOGUE.filter((entry) => entry.Group === group);
  return (
    <Modal open={open} onClose={onClose} title="Actions" size="lg" footer={<ModalFooter onCancel={onClose} cancelLabel="Close" />}>
      <TabList
        label="Action groups"
        tone="bare"
        className="flex flex-wrap gap-1 border-b border-border pb-2"
        tabs={ActionGroups.map((name) => ({ key: name, label: name }))}
        selected={group}
        onSelect={setGroup}
      />
      <ul role="tabpanel" aria-label={group} className="flex max-h-[60vh] flex-col gap-2 overflow-y-auto">
        {entries.map((entry) => (
          <ActionRow key={entry.Function} entry={entry} isAdmin={!!user?.IsAdmin} />
        ))}
      </ul>
    </Modal>
  );
}
