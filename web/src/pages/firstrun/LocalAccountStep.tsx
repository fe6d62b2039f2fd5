import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useDefaultUser, useSaveDefaultUser } from '@/api/init';
import { CredentialsFields } from '@/components/CredentialsFields';
import { StepFrame } from './StepFrame';
import { useFirstRun } from './wizardContext';

export default function LocalAccountStep() {
  const navigate = useNavigate();
  const { markSaved, credentials, setCredentials } = useFirstRun();
  const defaults = useDefaultUser();
  const save = useSaveDefaultUser();
  const [account, setAccount] = useState({ Username: credentials?.Username ?? 'Default', Password: credentials?.Password ?? '' });
  const [prefilled, setPrefilled] = useState(!!credentials);

  // The server's default account fills the fields once, when it has answered.
  if (!prefilled && !defaults.isPending) {
    if (defaults.data) {
      setAccount({ Username: defaults.data.Username || 'Default', Password: defaults.data.Password ?? '' });
    }
    setPrefilled(true);
  }

  const next = () => {
    const chosen = { Username: account.Username.trim(), Password: account.Password };
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
      nextDisabled={!account.Username.trim()}
      nextBusy={save.isPending}
      onNext={next}
      error={save.error?.message}
    >
      <p className="text-muted">
        This account signs in to the console and owns the collection. It becomes the server administrator; you can add more users later.
      </p>
      <CredentialsFields
        kind="new"
        value={account}
        onChange={(change) => setAccount((current) => ({ ...current, ...change }))}
        required
        passwordHint="Leave empty for no password (not recommended if the server is reachable from other machines)."
      />
    </StepFrame>
  );
}
