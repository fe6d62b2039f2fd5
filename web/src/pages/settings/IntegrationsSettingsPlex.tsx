import { useEffect, useState } from 'react';
import { toast } from 'react-toastify';
import { SHOKO_PLEX_AGENTS } from '@shoko-ts/contract';
import {
  usePlexLibraries,
  usePlexLoginUrl,
  usePlexServers,
  usePlexStatus,
  useSelectPlexServer,
  useSetPlexLibraries,
  useUnlinkPlex,
} from '@/api/integrations';
import { getSetting, useSettings } from '@/api/settings';
import { Button } from '@/components/Button';
import { Checkbox } from '@/components/Checkbox';
import { Panel } from '@/components/Panel';
import { Spinner } from '@/components/Spinner';

/** How often the login status is asked while the user signs in on Plex (SPEC.md §9). */
export const PLEX_POLL_MS = 1000;
const STATUS_TOAST = 'plex-status';
const NO_KEYS: number[] = [];

function PlexLinkButton() {
  const saved = useSettings().data;
  const [pollMs, setPollMs] = useState(0);
  const loginUrl = usePlexLoginUrl();
  const status = usePlexStatus(pollMs);
  const unlink = useUnlinkPlex();

  // Once the status says linked, polling stops and the waiting toast goes.
  if (status.data && pollMs !== 0) setPollMs(0);
  useEffect(() => {
    if (status.data) toast.dismiss(STATUS_TOAST);
  }, [status.data]);
  useEffect(() => () => void toast.dismiss(STATUS_TOAST), []);

  if (status.data) {
    return (
      <Button variant="danger" busy={unlink.isPending} disabled={!saved} onClick={() => saved && unlink.mutate(saved)}>
        Unlink
      </Button>
    );
  }
  if (loginUrl.data) {
    const login = () => {
      window.open(loginUrl.data, '_blank', 'noopener');
      setPollMs(PLEX_POLL_MS);
      toast.info('Checking Plex login status!', { autoClose: false, closeOnClick: false, draggable: false, toastId: STATUS_TOAST });
    };
    return (
      <Button onClick={login} busy={pollMs !== 0}>
        Login
      </Button>
    );
  }
  return (
    <div className="flex flex-col items-end gap-1">
      <Button onClick={() => void loginUrl.refetch()} busy={loginUrl.isFetching || status.isPending}>
        Authenticate
      </Button>
      {loginUrl.error && (
        <span role="alert" className="text-xs text-danger">
          {loginUrl.error.message}
        </span>
      )}
    </div>
  );
}

function PlexLibraries({ selected }: { selected: number[] }) {
  const libraries = usePlexLibraries(true);
  const setLibraries = useSetPlexLibraries();
  const shokoLibraries = (libraries.data ?? []).filter((library) => (SHOKO_PLEX_AGENTS as readonly string[]).includes(library.Agent));

  // Shown at once; saved right away, and put back if the server refuses.
  const [chosen, setChosen] = useState(selected);
  const [chosenFrom, setChosenFrom] = useState(selected);
  if (chosenFrom !== selected) {
    setChosenFrom(selected);
    setChosen(selected);
  }
  const toggle = (key: number, checked: boolean) => {
    const next = checked ? [...chosen, key] : chosen.filter((k) => k !== key);
    setChosen(next);
    setLibraries.mutate(next, { onError: () => setChosen(selected) });
  };

  return (
    <div className="flex flex-col gap-2">
      <div className="text-sm font-semibold">Libraries</div>
      <div className="flex flex-col gap-2 rounded-md border border-border bg-background-alt p-4">
        {libraries.isPending && <Spinner size={1} />}
        {(libraries.isError || (libraries.isSuccess && shokoLibraries.length === 0)) && (
          <p className="text-center text-sm">No libraries found!</p>
        )}
        {shokoLibraries.map((library) => (
          <Checkbox
            key={library.Key}
            label={library.Title}
            checked={chosen.includes(library.Key)}
            onChange={(checked) => toggle(library.Key, checked)}
          />
        ))}
      </div>
    </div>
  );
}

export function PlexPanel() {
  const saved = useSettings().data;
  const authenticated = usePlexStatus().data === true;
  const servers = usePlexServers(authenticated);
  const selectServer = useSelectPlexServer();
  const server = getSetting<string>(saved, 'Plex.Server') ?? '';
  const libraries = getSetting<number[]>(saved, 'Plex.Libraries') ?? NO_KEYS;
  const [choice, setChoice] = useState(server);
  const [choiceFrom, setChoiceFrom] = useState(server);
  if (choiceFrom !== server) {
    setChoiceFrom(server);
    setChoice(server);
  }

  const onServerChange = (value: string) => {
    setChoice(value);
    selectServer.mutate(value, { onError: () => setChoice(server) });
  };

  return (
    <Panel title="Plex Options">
      <div className="flex items-center justify-between gap-3 text-sm">
        <span>Plex Link</span>
        <PlexLinkButton />
      </div>
      <div className={`flex flex-col gap-3 ${authenticated ? '' : 'pointer-events-none opacity-50'}`} aria-disabled={!authenticated}>
        <label className="flex items-center justify-between gap-4 text-sm">
          <span>Server</span>
          <span className="flex items-center gap-2">
            {authenticated && servers.isPending && <Spinner size={0.8} />}
            <select
              aria-label="Server"
              disabled={!authenticated || selectServer.isPending}
              className="rounded-md border border-border bg-background-alt px-2 py-1.5 text-sm"
              value={choice}
              onChange={(event) => onServerChange(event.target.value)}
            >
              <option value="" disabled>
                --Select Server--
              </option>
              {(servers.data ?? []).map((device) => (
                <option key={device.ClientIdentifier} value={device.ClientIdentifier}>
                  {device.Name}
                </option>
              ))}
            </select>
          </span>
        </label>
        {authenticated && servers.isSuccess && server !== '' && <PlexLibraries selected={libraries} />}
      </div>
    </Panel>
  );
}
