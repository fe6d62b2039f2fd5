import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useDefaultUser, useSaveDefaultUser } from '@/api/init';
import { TextField } from '@/components/TextField';
import { StepFrame } from './StepFrame';
import { useFirstRun } from './wizardContext';

export default function LocalAccountStep() {
  const navigate = useNavigate();
  const { markSaved, credentials, setCredentials } = useFirstRun();
  const defaults = useDefaultUser();
  const save = useSaveDefaultUser();
  const [username, setUsername] = useState(credentials?.Username ?? 'Default');
  const [password, setPassword] = useState(credentials?.Password ?? '');
  const [prefilled, setPrefilled] = useState(!!credentials);

  // The server's default account fills the fields once, when it has answered.
  if (!prefilled && !defaults.isPending) {
    if (defaults.data) {
      setUsername(defaults.data.Username || 'Default');
      setPassword(defaults.data.Password ?? '');
    }
    setPrefilled(true);
  }

  const next = () => {
    const chosen = { Username: username.trim(), Password: password };
    save.mutate(chosen, {
      onSuccess: () => {
        setCredentials(chosen);
        markSaved('local-account');
        navigate('../anidb-account');
      },
    });
  };

  return (
    <StepFrame
      title="Local Account"
      back="acknowledgement"
      nextDisabled={!username.trim()}
      nextBusy={save.isPending}
      onNext={next}
      error={save.error?.message}
    >
      <p className="text-muted">
        This account signs in to the console and owns the collection. It becomes the server administrator; you can add more users later.
      </p>
      <TextField
        label="Username"
        name="username"
        autoComplete="username"
        value={username}
        onChange={(e) => setUsername(e.target.value)}
        required
      />
      <TextField
        label="Password"
        name="password"
        type="password"
        autoComplete="new-password"
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        hint="Leave empty for no password (not recommended if the server is reachable from other machines)."
      />
    </StepFrame>
  );
}
