import { useState, type FormEvent } from 'react';
import { useLogin } from '@/api/auth';
import { isApiError } from '@/api/client';
import { Button } from '@/components/Button';
import { Checkbox } from '@/components/Checkbox';
import { CredentialsFields } from '@/components/CredentialsFields';

export const LOGIN_FAILED_TEXT = 'Invalid Username or Password. Try again.';

export function LoginForm({ onLoggedIn }: { onLoggedIn: () => void }) {
  const [credentials, setCredentials] = useState({ Username: '', Password: '' });
  const [rememberUser, setRememberUser] = useState(false);
  const login = useLogin();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!credentials.Username.trim()) return;
    login.mutate({ user: credentials.Username, pass: credentials.Password, rememberUser }, { onSuccess: onLoggedIn });
  };

  return (
    <form onSubmit={submit} className="flex flex-col gap-4">
      <CredentialsFields kind="login" value={credentials} onChange={(change) => setCredentials((current) => ({ ...current, ...change }))} />
      <Checkbox label="Remember Me" checked={rememberUser} onChange={setRememberUser} />
      {login.isError && (
        <p role="alert" className="text-sm font-semibold text-danger">
          {/* A server that cannot issue the key (a full data disk, the database away) says why. */}
          {isApiError(login.error) && login.error.status >= 500 ? login.error.message : LOGIN_FAILED_TEXT}
        </p>
      )}
      <Button type="submit" disabled={!credentials.Username.trim()} busy={login.isPending}>
        Login
      </Button>
    </form>
  );
}
