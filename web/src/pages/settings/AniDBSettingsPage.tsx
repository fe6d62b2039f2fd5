import { useState } from 'react';
import { useSupportedLanguages, useTestAniDBLogin } from '@/api/settings';
import { Button } from '@/components/Button';
import { Checkbox } from '@/components/Checkbox';
import { Panel } from '@/components/Panel';
import { LanguageOrderModal } from '@/components/settings/LanguageOrderModal';
import { SettingNumber, SettingSelect, SettingsPage, SettingText, SettingToggle } from '@/components/settings/SettingsPage';
import { useSettingsDraft, type SettingsDraft } from '@/components/settings/useSettingsDraft';
import { deleteTypeOptions, storageStateOptions, updateFrequencyOptions } from '@/components/settings/options';

/** The language orders the AniDB page edits, each in its own modal. */
const LANGUAGE_ORDERS = [
  ['Language.SeriesTitleLanguageOrder', 'Series Title Language'],
  ['Language.EpisodeTitleLanguageOrder', 'Episode Title Language'],
  ['Language.DescriptionLanguageOrder', 'Description Language'],
] as const;

/** Relation types auto-grouping can ignore (`AutoGroupSeriesRelationExclusions`, SPEC.md §3), with their labels. */
const RELATION_EXCLUSIONS = [
  ['AllowDissimilarTitleExclusion', 'Allow Dissimilar Titles'],
  ['prequel', 'Prequel'],
  ['sequel', 'Sequel'],
  ['ova', 'OVA'],
  ['movie', 'Movie'],
  ['same setting', 'Same Setting'],
  ['alternative setting', 'Alternative Setting'],
  ['alternative version', 'Alternative Version'],
  ['parent story', 'Parent Story'],
  ['side story', 'Side Story'],
  ['full story', 'Full Story'],
  ['summary', 'Summary'],
  ['character', 'Character'],
  ['other', 'Other'],
] as const;

function TestLogin({ draft }: { draft: SettingsDraft }) {
  const test = useTestAniDBLogin();
  const username = draft.get<string>('AniDb.Username')?.trim() ?? '';
  const password = draft.get<string>('AniDb.Password') ?? '';
  return (
    <div className="flex flex-wrap items-center gap-3">
      <Button
        variant="secondary"
        busy={test.isPending}
        disabled={!username || !password}
        onClick={() => test.mutate({ Username: username, Password: password })}
      >
        Test Login
      </Button>
      <span aria-live="polite" className="text-sm" data-testid="anidb-test-result">
        {test.isPending ? (
          <span className="text-muted">Logging in to AniDB…</span>
        ) : test.isSuccess ? (
          <span className="text-success">AniDB login successful!</span>
        ) : test.isError ? (
          <span role="alert" className="text-danger">
            {test.error.message}
          </span>
        ) : !password ? (
          <span className="text-muted">Enter the password to test the login.</span>
        ) : null}
      </span>
    </div>
  );
}

function LanguageOptions({ draft }: { draft: SettingsDraft }) {
  const languages = useSupportedLanguages();
  const [editing, setEditing] = useState<{ path: string; label: string } | null>(null);
  const nameOf = (code: string) =>
    code === 'x-main' ? 'Main Title' : (languages.data?.find((language) => language.Alpha2 === code)?.Name ?? code);
  return (
    <Panel title="Language Options">
      <SettingToggle draft={draft} path="Language.UseSynonyms" label="Use Synonyms" />
      {LANGUAGE_ORDERS.map(([path, label]) => {
        const order = draft.get<string[]>(path) ?? [];
        return (
          <div key={path} className="flex items-center justify-between gap-4 py-1.5 text-sm">
            <div className="flex min-w-0 flex-col">
              <span>{label}</span>
              <span className="truncate text-xs text-muted" data-testid={`${path}-summary`}>
                {order.length ? order.map(nameOf).join(', ') : 'None'}
              </span>
            </div>
            <Button variant="secondary" onClick={() => setEditing({ path, label })} aria-label={`Edit ${label}`}>
              Edit
            </Button>
          </div>
        );
      })}
      <LanguageOrderModal
        open={!!editing}
        title={editing ? `${editing.label} Order` : ''}
        value={editing ? (draft.get<string[]>(editing.path) ?? []) : []}
        onClose={() => setEditing(null)}
        onSave={(value) => editing && draft.set(editing.path, value)}
      />
    </Panel>
  );
}

function GroupingOptions({ draft }: { draft: SettingsDraft }) {
  const enabled = !!draft.get<boolean>('AutoGroupSeries');
  const exclusions = draft.get<string[]>('AutoGroupSeriesRelationExclusions') ?? [];
  const toggle = (id: string, on: boolean) =>
    draft.set('AutoGroupSeriesRelationExclusions', on ? [...exclusions.filter((e) => e !== id), id] : exclusions.filter((e) => e !== id));
  return (
    <Panel title="Grouping Options">
      <SettingToggle draft={draft} path="AutoGroupSeries" label="Auto Group Series" />
      <SettingToggle draft={draft} path="AutoGroupSeriesUseScoreAlgorithm" label="Determine Main Series Using Score" disabled={!enabled} />
      <fieldset disabled={!enabled} className="flex flex-col gap-2 disabled:opacity-50">
        <legend className="mb-1 text-sm font-semibold">Exclude Relations From Grouping</legend>
        <div className="grid grid-cols-1 gap-x-6 gap-y-1 sm:grid-cols-2">
          {RELATION_EXCLUSIONS.map(([id, label]) => (
            <Checkbox key={id} label={label} checked={exclusions.includes(id)} onChange={(on) => toggle(id, on)} />
          ))}
        </div>
      </fieldset>
    </Panel>
  );
}

export default function AniDBSettingsPage() {
  const draft = useSettingsDraft();
  return (
    <SettingsPage title="AniDB Settings" draft={draft}>
      <Panel title="Login Options">
        <SettingText draft={draft} path="AniDb.Username" label="Username" />
        <SettingText draft={draft} path="AniDb.Password" label="Password" type="password" hint="Leave empty to keep the saved password." />
        <TestLogin draft={draft} />
        <SettingText draft={draft} path="AniDb.HTTPServerUrl" label="HTTP Server URL" hint="{scheme}://{address}:{port}" />
      </Panel>
      <Panel title="Download Options">
        <SettingToggle draft={draft} path="AniDb.DownloadCharacters" label="Download Characters" />
        <SettingToggle draft={draft} path="AniDb.DownloadCreators" label="Download Creators" />
        <SettingToggle draft={draft} path="AniDb.DownloadReleaseGroups" label="Download Release Groups" />
        <SettingToggle draft={draft} path="AniDb.DownloadRelatedAnime" label="Download Related Anime" />
        <SettingToggle draft={draft} path="AniDb.AutomaticallyImportSeries" label="Automatically Import Series" />
        <SettingNumber draft={draft} path="AniDb.MaxRelationDepth" label="Max Relation Depth" min={0} max={5} />
      </Panel>
      <Panel title="MyList Options">
        <SettingToggle draft={draft} path="AniDb.MyList_AddFiles" label="Add Files" />
        <SettingSelect draft={draft} path="AniDb.MyList_StorageState" label="Storage State" options={storageStateOptions} />
        <SettingSelect draft={draft} path="AniDb.MyList_DeleteType" label="Delete Action" options={deleteTypeOptions} />
        <SettingToggle draft={draft} path="AniDb.MyList_ReadUnwatched" label="Read Unwatched" />
        <SettingToggle draft={draft} path="AniDb.MyList_ReadWatched" label="Read Watched" />
        <SettingToggle draft={draft} path="AniDb.MyList_SetWatched" label="Set Watched" />
        <SettingToggle draft={draft} path="AniDb.MyList_SetUnwatched" label="Set Unwatched" />
      </Panel>
      <Panel title="Update Options">
        <SettingSelect draft={draft} path="AniDb.Anime_UpdateFrequency" label="Series Information" options={updateFrequencyOptions} />
        <SettingSelect draft={draft} path="AniDb.File_UpdateFrequency" label="Files With Missing Info" options={updateFrequencyOptions} />
        <SettingSelect draft={draft} path="AniDb.MyList_UpdateFrequency" label="MyList Stats" options={updateFrequencyOptions} />
        <SettingSelect draft={draft} path="AniDb.Calendar_UpdateFrequency" label="Calendar" options={updateFrequencyOptions} />
        <SettingSelect draft={draft} path="AniDb.Notification_UpdateFrequency" label="Notifications" options={updateFrequencyOptions} />
      </Panel>
      <LanguageOptions draft={draft} />
      <GroupingOptions draft={draft} />
    </SettingsPage>
  );
}
