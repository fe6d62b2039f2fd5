import type { Credentials } from '@shoko-ts/contract';
import { TextField } from '@/components/TextField';

/** Field names and browser autocomplete per use: signing in (focus starts in Username), choosing a new account, or entering the AniDB account. */
const KINDS = {
  login: { names: ['username', 'password'], autoComplete: ['username', 'current-password'] },
  new: { names: ['username', 'password'], autoComplete: ['username', 'new-password'] },
  anidb: { names: ['anidb-username', 'anidb-password'], autoComplete: ['off', 'off'] },
} as const;

/** The Username and Password fields of the login form and the first-run account steps; a change reports only the field typed in. */
export function CredentialsFields({
  kind,
  value,
  onChange,
  required,
  passwordHint,
}: {
  kind: keyof typeof KINDS;
  value: Credentials;
  onChange: (change: Partial<Credentials>) => void;
  /** Marks the user name field required. */
  required?: boolean;
  passwordHint?: string;
}) {
  const { names, autoComplete } = KINDS[kind];
  return (
    <>
      <TextField
        label="Username"
        name={names[0]}
        autoComplete={autoComplete[0]}
        // eslint-disable-next-line jsx-a11y/no-autofocus -- the login page has nothing else to do; focus starts in the user name field
        autoFocus={kind === 'login'}
        value={value.Username}
        onChange={(e) => onChange({ Username: e.target.value })}
        required={required}
      />
      <TextField
        label="Password"
        name={names[1]}
        type="password"
        autoComplete={autoComplete[1]}
        value={value.Password}
        onChange={(e) => onChange({ Password: e.target.value })}
        hint={passwordHint}
      />
    </>
  );
}
