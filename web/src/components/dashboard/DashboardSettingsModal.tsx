import { useState } from 'react';
import { toast } from 'react-toastify';
import { Button } from '@/components/Button';
import { Modal } from '@/components/Modal';
import { TextField } from '@/components/TextField';
import { Toggle } from '@/components/Toggle';
import { setDashboardEditing } from './editMode';
import { clampCount, COUNT_LIMITS, useDashboardSettings, type DashboardSettings } from './settings';

type Flag = { [K in keyof DashboardSettings]: DashboardSettings[K] extends boolean ? K : never }[keyof DashboardSettings];

const WIDGET_FLAGS: Array<[Flag, string]> = [
  ['hideQueueProcessor', 'Queue Processor'],
  ['hideUnrecognizedFiles', 'Unrecognized Files'],
  ['hideRecentlyImported', 'Recently Imported'],
  ['hideCollectionStats', 'Collection Statistics'],
  ['hideMediaType', 'Media Type'],
  ['hideImportFolders', 'Import Folders'],
  ['hideShokoNews', 'Shoko News'],
  ['hideContinueWatching', 'Continue Watching'],
  ['hideNextUp', 'Next Up'],
  ['hideUpcomingAnime', 'Upcoming Anime'],
  ['hideRecommendedAnime', 'Recommended Anime'],
];
const OPTION_FLAGS: Array<[Flag, string, string]> = [
  ['combineContinueWatching', 'Combine Continue Watching & Next Up', 'Next Up also lists series with an episode in progress.'],
  ['hideR18Content', 'Hide R18 Content', 'Leaves restricted (18+) anime out of every dashboard list.'],
  ['useThumbnailsForEpisodes', 'Use Thumbnails For Episodes', 'Episode thumbnails instead of series posters, where available.'],
];
const COUNTS: Array<[keyof typeof COUNT_LIMITS, string]> = [
  ['recentlyImportedEpisodesCount', 'Recently Imported Episodes'],
  ['recentlyImportedSeriesCount', 'Recently Imported Series'],
  ['shokoNewsPostsCount', 'Shoko News Posts'],
];

/** Which widgets show and how long the lists are (WebUI_Settings.dashboard); saved with the server settings. */
export function DashboardSettingsModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { settings, loaded, saving, save } = useDashboardSettings();
  const [draft, setDraft] = useState<DashboardSettings>(settings);
  const [counts, setCounts] = useState<Record<string, string>>({});
  // Reset when the modal opens (and when the saved settings arrive while it is open), not while the user edits;
  // `settings` is a fresh object each render. `null` makes the first render count as a change, as an effect would.
  const [resetFor, setResetFor] = useState<{ open: boolean; loaded: boolean } | null>(null);
  if (resetFor?.open !== open || resetFor.loaded !== loaded) {
    setResetFor({ open, loaded });
    if (open) {
      setDraft(settings);
      setCounts(Object.fromEntries(COUNTS.map(([key]) => [key, String(settings[key])])));
    }
  }

  const setFlag = (key: Flag, value: boolean) => setDraft((current) => ({ ...current, [key]: value }));
  const submit = async () => {
    const next = { ...draft };
    for (const [key] of COUNTS) next[key] = clampCount(key, Number(counts[key]));
    await save(next);
    toast.success('Dashboard settings saved!');
    onClose();
  };

  return (
    <Modal
      open={open}
      onClose={onClose}
      title="Dashboard Settings"
      size="lg"
      footer={
        <>
          <Button
            variant="ghost"
            className="mr-auto"
            onClick={() => {
              setDashboardEditing(true);
              onClose();
            }}
          >
            Edit Layout
          </Button>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={() => void submit().catch(() => undefined)} busy={saving} disabled={!loaded}>
            Save
          </Button>
        </>
      }
    >
      {!loaded && <p className="text-muted">Loading settings…</p>}
      <div className="grid gap-6 md:grid-cols-2">
        <fieldset className="flex flex-col">
          <legend className="mb-2 font-semibold">Widgets</legend>
          {WIDGET_FLAGS.map(([key, label]) => (
            <Toggle key={key} label={`Show ${label}`} checked={!draft[key]} onChange={(shown) => setFlag(key, !shown)} />
          ))}
        </fieldset>
        <div className="flex flex-col gap-4">
          <fieldset className="flex flex-col">
            <legend className="mb-2 font-semibold">Options</legend>
            {OPTION_FLAGS.map(([key, label, description]) => (
              <Toggle key={key} label={label} description={description} checked={draft[key]} onChange={(value) => setFlag(key, value)} />
            ))}
          </fieldset>
          <fieldset className="flex flex-col gap-3">
            <legend className="mb-2 font-semibold">List Sizes</legend>
            {COUNTS.map(([key, label]) => (
              <TextField
                key={key}
                label={label}
                type="number"
                min={1}
                max={COUNT_LIMITS[key]}
                value={counts[key] ?? ''}
                hint={`1 to ${COUNT_LIMITS[key]}`}
                onChange={(event) => setCounts((current) => ({ ...current, [key]: event.target.value }))}
              />
            ))}
          </fieldset>
        </div>
      </div>
    </Modal>
  );
}
