import { mdiAccountCircleOutline, mdiPencilCircleOutline, mdiTrashCanOutline } from '@mdi/js';
import { useCallback, useRef, useState } from 'react';
import type { User } from '@shoko-ts/contract';
import { useCreateUser, useDeleteUser } from '@/api/userManagement';
import { AvatarEditor } from '@/components/settings/AvatarEditor';
import { Button } from '@/components/Button';
import { Checkbox } from '@/components/Checkbox';
import { ConfirmModal } from '@/components/ConfirmModal';
import { Icon } from '@/components/Icon';
import { Modal, ModalFooter } from '@/components/Modal';
import { TextField } from '@/components/TextField';

/** The users on the left of Settings › User Management, each with edit and delete icons. */
export function UserList({
  users,
  selectedId,
  onSelect,
  onDelete,
}: {
  users: User[];
  selectedId: number | null;
  onSelect: (id: number) => void;
  onDelete: (user: User) => void;
}) {
  return (
    <ul aria-label="Users" className="flex flex-col divide-y divide-border">
      {users.map((user) => (
        <li
          key={user.ID}
          className={`flex items-center gap-3 py-2 ${user.ID === selectedId ? 'text-primary' : ''}`}
          aria-current={user.ID === selectedId || undefined}
        >
          <UserAvatar user={user} size="size-8" />
          <span className="min-w-0 flex-1 truncate text-sm font-semibold">{user.Username}</span>
          {user.IsAdmin && <span className="text-xs text-muted">Admin</span>}
          <button
            type="button"
            aria-label={`Edit ${user.Username}`}
            title="Edit"
            className="text-primary hover:brightness-125"
            onClick={() => onSelect(user.ID)}
          >
            <Icon path={mdiPencilCircleOutline} size={0.9} />
          </button>
          <button
            type="button"
            aria-label={`Delete ${user.Username}`}
            title="Delete"
            className="text-danger hover:brightness-125"
            onClick={() => onDelete(user)}
          >
            <Icon path={mdiTrashCanOutline} size={0.9} />
          </button>
        </li>
      ))}
    </ul>
  );
}

function UserAvatar({ user, size }: { user: Pick<User, 'Avatar' | 'Username'>; size: string }) {
  return user.Avatar ? (
    <img src={user.Avatar} alt={`${user.Username}'s avatar`} className={`${size} shrink-0 rounded-full object-cover`} />
  ) : (
    <Icon path={mdiAccountCircleOutline} className={`${size} shrink-0 text-muted`} />
  );
}

/** The avatar with Pick (through the crop editor) and Remove. */
export function AvatarPicker({ username, avatar, onChange }: { username: string; avatar: string; onChange: (avatar: string) => void }) {
  const input = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const close = useCallback(() => setFile(null), []);
  return (
    <div className="flex items-center gap-4">
      <UserAvatar user={{ Avatar: avatar, Username: username }} size="size-20" />
      <div className="flex flex-wrap gap-2">
        <Button variant="secondary" onClick={() => input.current?.click()}>
          Pick Avatar
        </Button>
        <Button variant="secondary" disabled={!avatar} onClick={() => onChange('')}>
          Remove Avatar
        </Button>
      </div>
      <input
        ref={input}
        type="file"
        accept="image/*"
        aria-label="Avatar file"
        className="hidden"
        onChange={(event) => {
          setFile(event.target.files?.[0] ?? null);
          event.target.value = '';
        }}
      />
      <AvatarEditor
        file={file}
        onClose={close}
        onSave={(dataUrl) => {
          onChange(dataUrl);
          close();
        }}
      />
    </div>
  );
}

/** Add User: a username and a first password; the new user is selected once created. */
export function CreateUserModal({ open, onClose, onCreated }: { open: boolean; onClose: () => void; onCreated: (user: User) => void }) {
  const create = useCreateUser();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [isAdmin, setIsAdmin] = useState(false);
  const close = () => {
    setUsername('');
    setPassword('');
    setIsAdmin(false);
    create.reset();
    onClose();
  };
  const submit = () =>
    create.mutate(
      { Username: username.trim(), Password: password, IsAdmin: isAdmin },
      {
        onSuccess: (user) => {
          onCreated(user);
          close();
        },
      },
    );
  const errors = fieldErrors(create.error);
  return (
    <Modal
      open={open}
      onClose={close}
      title="Add User"
      size="sm"
      footer={
        <ModalFooter onCancel={close} action="Create" onAction={submit} disabled={!username.trim() || !password} busy={create.isPending} />
      }
    >
      <TextField
        label="Username"
        autoComplete="off"
        value={username}
        errors={errors.Username}
        onChange={(event) => setUsername(event.target.value)}
      />
      <TextField
        label="Password"
        type="password"
        autoComplete="new-password"
        value={password}
        errors={errors.Password}
        onChange={(event) => setPassword(event.target.value)}
      />
      <Checkbox label="Administrator" checked={isAdmin} onChange={setIsAdmin} />
      {create.error && !errors.Username && !errors.Password && (
        <div role="alert" className="text-danger">
          {create.error.message}
        </div>
      )}
    </Modal>
  );
}

/** Asks before deleting another user; the server's refusal (such as the last admin) is shown in the dialog. */
export function DeleteUserModal({ user, onClose, onDeleted }: { user: User | null; onClose: () => void; onDeleted: (id: number) => void }) {
  const remove = useDeleteUser();
  const close = () => {
    remove.reset();
    onClose();
  };
  return (
    <ConfirmModal
      open={!!user}
      title="Delete User"
      size="sm"
      busy={remove.isPending}
      onCancel={close}
      onConfirm={() =>
        user &&
        remove.mutate(user.ID, {
          onSuccess: () => {
            onDeleted(user.ID);
            close();
          },
        })
      }
    >
      <p>
        Delete <strong>{user?.Username}</strong>? Their API keys stop working at once.
      </p>
      {remove.error && (
        <div role="alert" className="text-danger">
          {remove.error.message}
        </div>
      )}
    </ConfirmModal>
  );
}

/** Field messages of a validation problem, keyed by field. */
export function fieldErrors(error: Error | null): Record<string, string[]> {
  const body = (error as { body?: { errors?: Record<string, string[]> } } | null)?.body;
  return (body && typeof body === 'object' && body.errors) || {};
}
