import { useState } from 'react';
import { useNavigate } from 'react-router';
import { isApiError } from '@/api/client';
import { getSetting, useSaveSettings, useSettings, useTestAniDBLogin, withSetting } from '@/api/settings';
import type { Credentials } from '@shoko-ts/contract';
import { CredentialsFields } from '@/components/CredentialsFields';
import { StepFrame } from './StepFrame';
import { useFirstRun } from './wizardContext';

export default function AniDBAccountStep() {
  const navigate = useNavigate();
  const { markSaved } = useFirstRun();
  const settings = useSettings();
  const testLogin = useTestAniDBLogin();
  const saveSettings = useSaveSettings();
  const [typed, setTyped] = useState<Partial<Credentials>>({});
  const [error, setError] = useState<string | null>(null);

  // Until the user types, show what the server already has.
  const shownUsername = typed.Username ?? getSetting<string>(settings.data, 'AniDb.Username') ?? '';
  const shownPassword = typed.Password ?? getSetting<string>(settings.data, 'AniDb.Password') ?? '';

  const next = async () => {
    setError(null);
    const credentials = { Username: shownUsername.trim(), Password: shownPassword };
    try {
      await testLogin.mutateAsync(credentials);
    } catch (failure) {
      setError(isApiError(failure, 400) ? 'Incorrect Username/Password!' : 'Failed to log in!');
      return;
    }
    if (!settings.data) return;
    const changed = withSetting(withSetting(settings.data, 'AniDb.Username', credentials.Username), 'AniDb.Password', credentials.Password);
    try {
      await saveSettings.mutateAsync({ original: settings.data, changed, skipValidation: true });
    } catch {
      return; // the global handler shows the server's message
    }
    markSaved('anidb-account');
    navigate('../metadata-sources');
  };

  return (
    <StepFrame
      title="AniDB Account"
      back="local-account"
      nextDisabled={!shownUsername.trim() || !shownPassword || !settings.data}
      nextBusy={testLogin.isPending || saveSettings.isPending}
      onNext={() => void next()}
      error={error ?? (settings.isError ? settings.error.message : null)}
    >
      <p className="text-muted">
        Shoko identifies your files through AniDB. Enter the account you use on anidb.net; it is checked before it is saved. You can create
        one for free at anidb.net.
      </p>
      <CredentialsFields
        kind="anidb"
        value={{ Username: shownUsername, Password: shownPassword }}
        onChange={(change) => setTyped((current) => ({ ...current, ...change }))}
        passwordHint="The password must be alphanumeric only (letters and digits). AniDB's client interface mishandles other characters, and repeated failed logins risk a ban."
      />
    </StepFrame>
  );
}
