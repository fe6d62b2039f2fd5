import { useState } from 'react';
import { toast } from 'react-toastify';
import { useLogout } from '@/api/auth';
import { useChangePassword } from '@/api/userManagement';
import { Button } from '@/components/Button';
import { Checkbox } from '@/components/Checkbox';
import { TextField } from '@/components/TextField';
import { usePersistentNotice } from './useUnsavedToast';

/** How long the 'you will be logged out' notice stays, and when the logout happens after changing one's own password. */
const OWN_CHANGE_NOTICE_MS = 5000;
const OWN_CHANGE_LOGOUT_MS = 6000;

/** The password part of a user's edit form; saved on its own with Change, not with the form's Save. */
export function PasswordChange({ userId, isCurrentUser }: { userId: number; isCurrentUser: boolean }) {
  const [password, setPassword] = useState('');
  const [revoke, setRevoke] = useState(true);
  const change = useChangePassword();
  const logout = useLogout();
  usePersistentNotice(
    password !== '',
    'password-changed',
    'Password field changed!',
    'Click on the "Change" button to save your new password',
  );

  const submit = () =>
    change.mutate(
      { userId: isCurrentUser ? 'Current' : userId, Password: password, RevokeAPIKeys: revoke },
      {
        onSuccess: () => {
          setPassword('');
          if (isCurrentUser && revoke) {
            toast.info('Password changed! You will be logged out in a few seconds.', { autoClose: OWN_CHANGE_NOTICE_MS });
            window.setTimeout(logout, OWN_CHANGE_LOGOUT_MS);
          } else {
            toast.success('Password changed!', { autoClose: 3000 });
          }
        },
      },
    );

  return (
    <div className="flex flex-col gap-3">
      <TextField
        label="New Password"
        type="password"
        autoComplete="new-password"
        value={password}
        onChange={(event) => setPassword(event.target.value)}
        addon={
          <Button disabled={!password} busy={change.isPending} onClick={submit}>
            Change
          </Button>
        }
      />
      <Checkbox label="Revoke API keys (logs out every device of this user)" checked={revoke} onChange={setRevoke} />
    </div>
  );
}
