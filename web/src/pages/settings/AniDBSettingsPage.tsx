import { Panel } from '@/components/Panel';
import { SettingNumber, SettingSelect, SettingsPage, SettingText, SettingToggle } from '@/components/settings/SettingsPage';
import { useSettingsDraft } from '@/components/settings/useSettingsDraft';
import { deleteTypeOptions, storageStateOptions, updateFrequencyOptions } from '@/components/settings/options';

export default function AniDBSettingsPage() {
  const draft = useSettingsDraft();
  return (
    <SettingsPage title="AniDB Settings" draft={draft}>
      <Panel title="Login Options">
        <SettingText draft={draft} path="AniDb.Username" label="Username" />
        <SettingText draft={draft} path="AniDb.Password" label="Password" type="password" hint="Leave empty to keep the saved password." />
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
      <Panel title="Grouping Options">
        <SettingToggle draft={draft} path="AutoGroupSeries" label="Auto Group Series" />
        <SettingToggle draft={draft} path="AutoGroupSeriesUseScoreAlgorithm" label="Determine Main Series Using Score" />
      </Panel>
    </SettingsPage>
  );
}
