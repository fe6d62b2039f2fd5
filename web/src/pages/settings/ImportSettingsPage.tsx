import { Panel } from '@/components/Panel';
import { ImportFolderList } from '@/components/importFolders/ImportFolderList';

/** Settings › Import. For now the import folders; the import options arrive with the settings pages. */
export default function ImportSettingsPage() {
  return (
    <div className="flex w-full max-w-4xl flex-col gap-4">
      <h1 className="text-xl font-semibold">Import Settings</h1>
      <Panel title="Import Folders">
        <ImportFolderList scannable />
      </Panel>
    </div>
  );
}
