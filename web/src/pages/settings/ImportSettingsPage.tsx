import { Panel } from '@/components/Panel';
import { TextField } from '@/components/TextField';
import { ImportFolderList } from '@/components/importFolders/ImportFolderList';
import { SettingsPage, SettingToggle } from '@/components/settings/SettingsPage';
import { useSettingsDraft } from '@/components/settings/useSettingsDraft';

/** Settings › Import: the import options and the import folders. */
export default function ImportSettingsPage() {
  const draft = useSettingsDraft();
  const extensions = draft.get<string[]>('Import.VideoExtensions') ?? [];
  return (
    <SettingsPage title="Import Settings" draft={draft}>
      <Panel title="Import Options">
        <SettingToggle draft={draft} path="Import.RunOnStart" label="Import on start" />
        <SettingToggle draft={draft} path="Plugins.Renamer.RenameOnImport" label="Rename on import" />
        <SettingToggle draft={draft} path="Plugins.Renamer.MoveOnImport" label="Move on import" />
        <SettingToggle
          draft={draft}
          path="Plugins.Renamer.AllowRelocationInsideDestinationOnImport"
          label="Allow relocation inside destination on import"
        />
        <SettingToggle draft={draft} path="Import.AutomaticallyDeleteDuplicatesOnImport" label="Delete duplicates on import" />
        <SettingToggle draft={draft} path="Import.UseExistingFileWatchedStatus" label="Set file as watched if episode is watched" />
        <TextField
          label="Video Extensions"
          hint="Comma-separated, without dots."
          value={extensions.join(',')}
          errors={draft.errorsFor('Import.VideoExtensions')}
          onChange={(event) =>
            draft.set(
              'Import.VideoExtensions',
              event.target.value.split(',').map((part) => part.trim()),
            )
          }
        />
      </Panel>
      <Panel title="Import Folders">
        <ImportFolderList scannable />
      </Panel>
    </SettingsPage>
  );
}
