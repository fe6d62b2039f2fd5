import { useState, type FormEvent } from 'react';
import { useLogin } from '@/api/auth';
import { Button } from '@/components/Button';
import { Checkbox } from '@/components/Checkbox';
import { TextField } from '@/components/TextField';

export const LOGIN_FAILED_TEXT = 'Invalid Username or Password. Try again.';

export function LoginForm({ onLoggedIn }: { onLoggedIn: () => void }) {
  const [user, setUser] = useState('');
  const [pass, setPass] = useState('');
  const [rememberUser, setRememberUser] = useState(false);
  const login = useLogin();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!user.trim()) return;
    login.mutate({ user, pass, rememberUser }, { onSuccess: onLoggedIn });
  };

  return (
    <form onSubmit={submit} className="flex flex-col gap-4">
      <TextField
        label="Username"
        name="username"
        autoComplete="username"
        // eslint-disable-next-line jsx-a11y/no-autofocus -- the login page has nothing else to do; focus starts in the user name field
        autoFocus
        value={user}
        onChange={(e) => setUser(e.target.value)}
      />
      <TextField
        label="Password"
        name="password"
        type="password"
        autoComplete="current-password"
        value={pass}
        onChange={(e) => setPass(e.target.value)}
      />
      <Checkbox label="Remember Me" checked={rememberUser} onChange={setRememberUser} />
      {login.isError && (
        <p role="alert" className="text-sm font-semibold text-danger">
          {LOGIN_FAILED_TEXT}
        </p>
      )}
      <Button type="submit" disabled={!user.trim()} busy={login.isPending}>
        Login
      </Button>
    </form>
  );
}
