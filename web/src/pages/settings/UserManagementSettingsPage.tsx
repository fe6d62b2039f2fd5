import { mdiPlusCircleOutline } from '@mdi/js';
import { useMemo, useState } from 'react';
import { toast } from 'react-toastify';
import type { User } from '@shoko-ts/contract';
import { isApiError } from '@/api/client';
import { useAniDBTags, usePutUser, useUsers } from '@/api/userManagement';
import { useCurrentUser } from '@/api/users';
import { Button } from '@/components/Button';
import { Icon } from '@/components/Icon';
import { Panel } from '@/components/Panel';
import { Spinner } from '@/components/Spinner';
import { TextField } from '@/components/TextField';
import { Toggle } from '@/components/Toggle';
import { PasswordChange } from '@/components/settings/PasswordChange';
import { TagRestrictions } from '@/components/settings/TagRestrictions';
import { useUnsavedChangesToast } from '@/components/settings/useUnsavedToast';
import { AvatarPicker, CreateUserModal, DeleteUserModal, fieldErrors, UserList } from './UserManagementSettingsPanels';

/** The editable part of a user; the password is changed on its own. */
interface UserDraft {
  Username: string;
  IsAdmin: boolean;
  AniDB: boolean;
  Trakt: boolean;
  PlexUsernames: string;
  Avatar: string;
  RestrictedTags: number[];
}

const toDraft = (user: User): UserDraft => ({
  Username: user.Username,
  IsAdmin: user.IsAdmin,
  AniDB: user.CommunitySites.includes('AniDB'),
  Trakt: user.CommunitySites.includes('Trakt'),
  PlexUsernames: user.PlexUsernames,
  Avatar: user.Avatar,
  RestrictedTags: user.RestrictedTags,
});

const sameDraft = (a: UserDraft, b: UserDraft) =>
  a.Username === b.Username &&
  a.IsAdmin === b.IsAdmin &&
  a.AniDB === b.AniDB &&
  a.Trakt === b.Trakt &&
  a.PlexUsernames === b.PlexUsernames &&
  a.Avatar === b.Avatar &&
  [...a.RestrictedTags].sort().join() === [...b.RestrictedTags].sort().join();

const selfDeleteNotice = (
  <div>
    <div className="font-semibold">Woah there buddy!</div>
    <div className="text-sm">You just tried to delete yourself from the matrix. That&apos;s not the way to go about doing it.</div>
  </div>
);

/** Settings › User Management: pick a user on the left, edit them on the right, Save or Cancel. */
export default function UserManagementSettingsPage() {
  const users = useUsers();
  const current = useCurrentUser();
  const tags = useAniDBTags();
  const put = usePutUser();
  const [selectedId, setSelectedId] = useState<number | null>(null);
  // The edit belongs to one saved state of one user: picking another user, or the server's copy of this one changing,
  // starts from the saved state again (keyed on content, so a refetch of an unchanged list keeps the edit).
  const [edit, setEdit] = useState<{ key: string; draft: UserDraft } | null>(null);
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<User | null>(null);

  const list = users.data;
  const selected = list?.find((u) => u.ID === selectedId) ?? list?.find((u) => u.ID === current.data?.ID) ?? list?.[0] ?? null;
  const saved = useMemo(() => (selected ? toDraft(selected) : null), [selected]);
  const savedKey = saved && selected ? `${selected.ID}:${JSON.stringify(saved)}` : '';
  const draft = edit?.key === savedKey ? edit.draft : saved;
  const setDraft = (next: UserDraft | null) => setEdit(next ? { key: savedKey, draft: next } : null);

  const dirty = !!draft && !!saved && !sameDraft(draft, saved);
  useUnsavedChangesToast(dirty);

  const onlyAdmin = !!selected?.IsAdmin && (list ?? []).filter((u) => u.IsAdmin).length <= 1;
  const errors = fieldErrors(put.error);
  const change = (fields: Partial<UserDraft>) => draft && setDraft({ ...draft, ...fields });

  const save = () => {
    if (!selected || !draft || !saved) return;
    put.mutate(
      {
        ID: selected.ID,
        Username: draft.Username,
        IsAdmin: draft.IsAdmin,
        CommunitySites: [...(draft.AniDB ? ['AniDB'] : []), ...(draft.Trakt ? ['Trakt'] : [])],
        PlexUsernames: draft.PlexUsernames,
        RestrictedTags: draft.RestrictedTags,
        // The avatar is sent only when it changed: an empty string removes it.
        ...(draft.Avatar !== saved.Avatar ? { Avatar: draft.Avatar } : {}),
      },
      { onSuccess: () => toast.success('User saved!', { autoClose: 3000 }) },
    );
  };
  const select = (id: number) => {
    // Another user's edit starts clean: the last save's errors belonged to the previous one.
    put.reset();
    setSelectedId(id);
  };
  const requestDelete = (user: User) => {
    if (user.ID === current.data?.ID) toast.error(selfDeleteNotice);
    else setDeleting(user);
  };

  if (users.error) {
    return (
      <div className="flex w-full max-w-6xl flex-col gap-4">
        <h1 className="text-xl font-semibold">User Management</h1>
        <div role="alert" className="text-sm text-danger">
          {isApiError(users.error, 403) ? 'Only administrators can manage users.' : users.error.message}
        </div>
      </div>
    );
  }

  return (
    <div className="flex w-full max-w-6xl flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-xl font-semibold">User Management</h1>
        <div className="flex gap-2">
          <Button variant="secondary" disabled={!dirty || put.isPending} onClick={() => (put.reset(), setDraft(saved))}>
            Cancel
          </Button>
          <Button disabled={!dirty || !draft?.Username.trim()} busy={put.isPending} onClick={save}>
            Save
          </Button>
        </div>
      </div>
      {put.error && (
        <div role="alert" className="rounded-md border border-danger px-3 py-2 text-sm text-danger">
          {put.error.message}
        </div>
      )}
      {!list || !draft || !selected ? (
        <Spinner />
      ) : (
        <div className="grid gap-4 lg:grid-cols-[minmax(0,18rem)_minmax(0,1fr)]">
          <Panel
            title="Users"
            actions={
              <Button variant="ghost" className="!px-2 !py-1" onClick={() => setCreating(true)}>
                <Icon path={mdiPlusCircleOutline} size={0.8} />
                Add User
              </Button>
            }
            className="self-start"
          >
            <UserList users={list} selectedId={selected.ID} onSelect={select} onDelete={requestDelete} />
          </Panel>
          <div className="flex min-w-0 flex-col gap-4">
            <Panel title={`User Options — ${selected.Username}`}>
              <AvatarPicker username={draft.Username} avatar={draft.Avatar} onChange={(Avatar) => change({ Avatar })} />
              {errors.Avatar && <div className="text-xs font-semibold text-danger">{errors.Avatar.join(' ')}</div>}
              <TextField
                label="Display Name"
                value={draft.Username}
                errors={errors.Username}
                onChange={(event) => change({ Username: event.target.value })}
              />
              <div className="flex flex-col">
                <Toggle
                  label="Administrator"
                  description={onlyAdmin ? 'The only administrator cannot lose the flag.' : undefined}
                  disabled={onlyAdmin}
                  checked={draft.IsAdmin}
                  onChange={(IsAdmin) => change({ IsAdmin })}
                />
                <Toggle label="AniDB User" checked={draft.AniDB} onChange={(AniDB) => change({ AniDB })} />
                <Toggle label="Trakt User" checked={draft.Trakt} onChange={(Trakt) => change({ Trakt })} />
              </div>
              <TextField
                label="Plex Users"
                hint="Plex usernames of this user, comma-separated."
                value={draft.PlexUsernames}
                errors={errors.PlexUsernames}
                onChange={(event) => change({ PlexUsernames: event.target.value })}
              />
            </Panel>
            <Panel title="Password">
              <PasswordChange key={selected.ID} userId={selected.ID} isCurrentUser={selected.ID === current.data?.ID} />
            </Panel>
            <Panel title="Tag Restrictions">
              <TagRestrictions
                tags={tags.data}
                loading={tags.isPending}
                error={tags.error}
                selected={draft.RestrictedTags}
                onChange={(RestrictedTags) => change({ RestrictedTags })}
              />
            </Panel>
          </div>
        </div>
      )}
      <CreateUserModal open={creating} onClose={() => setCreating(false)} onCreated={(user) => select(user.ID)} />
      <DeleteUserModal
        user={deleting}
        onClose={() => setDeleting(null)}
        onDeleted={(id) => {
          if (id === selectedId) setSelectedId(null);
        }}
      />
    </div>
  );
}
