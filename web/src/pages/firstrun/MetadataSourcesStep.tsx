import { useState } from 'react';
import { useNavigate } from 'react-router';
import { getSetting, useSaveSettings, useSettings, useSupportedLanguages, withSetting, type SettingsDocument } from '@/api/settings';
import { Spinner } from '@/components/Spinner';
import { Toggle } from '@/components/Toggle';
import { LanguageOrder } from '@/components/settings/LanguageOrder';
import { StepFrame } from './StepFrame';
import { useFirstRun } from './wizardContext';

const downloadToggles = [
  ['TMDB.AutoLink', 'Automatically link series to TMDB', 'Adds TMDB descriptions, artwork and episode titles.'],
  ['AniDb.DownloadCharacters', 'Download characters', null],
  ['AniDb.DownloadCreators', 'Download creators (staff)', null],
  ['AniDb.DownloadRelatedAnime', 'Download related anime', 'Also fetches sequels, prequels and side stories of your series.'],
  ['AniDb.DownloadReleaseGroups', 'Download release groups', null],
] as const;

const languageOrders = [
  ['Language.SeriesTitleLanguageOrder', 'Series title language'],
  ['Language.EpisodeTitleLanguageOrder', 'Episode title language'],
  ['Language.DescriptionLanguageOrder', 'Description language'],
] as const;

export default function MetadataSourcesStep() {
  const navigate = useNavigate();
  const { markSaved } = useFirstRun();
  const settings = useSettings();
  const languages = useSupportedLanguages();
  const save = useSaveSettings();
  const [draft, setDraft] = useState<SettingsDocument | null>(null);
  const current = draft ?? settings.data;

  if (!current) {
    return settings.isError ? <p className="text-danger">{settings.error.message}</p> : <Spinner />;
  }
  const set = (path: string, value: unknown) => setDraft(withSetting(current, path, value));

  return (
    <StepFrame
      title="Metadata Sources"
      back="anidb-account"
      nextLabel="Save"
      nextBusy={save.isPending}
      onNext={() =>
        save.mutate(
          { original: settings.data!, changed: current, skipValidation: true },
          {
            onSuccess: () => {
              markSaved('metadata-sources');
              navigate('../start-server');
            },
          },
        )
      }
    >
      <p className="text-muted">
        Choose what Shoko downloads for each series and which languages it prefers. Everything here can be changed later in Settings.
      </p>
      <div className="grid gap-6 lg:grid-cols-2">
        <div className="flex flex-col divide-y divide-border rounded-lg border border-border bg-background-alt px-4 py-2">
          {downloadToggles.map(([path, label, description]) => (
            <Toggle
              key={path}
              label={label}
              description={description ?? undefined}
              checked={!!getSetting<boolean>(current, path)}
              onChange={(value) => set(path, value)}
            />
          ))}
        </div>
        <div className="flex flex-col gap-4">
          {languageOrders.map(([path, label]) => (
            <LanguageOrder
              key={path}
              label={label}
              languages={languages.data ?? []}
              value={getSetting<string[]>(current, path) ?? []}
              onChange={(value) => set(path, value)}
            />
          ))}
        </div>
      </div>
    </StepFrame>
  );
}
