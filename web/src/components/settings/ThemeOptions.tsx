import { useEffect, useRef } from 'react';
import { toast } from 'react-toastify';
import { mdiUpload } from '@mdi/js';
import { parseWebUISettings, useWebUISettings } from '@/api/settings';
import { useThemes, useUploadThemes } from '@/api/webui';
import { Button } from '@/components/Button';
import { Icon } from '@/components/Icon';
import { Panel } from '@/components/Panel';
import { Spinner } from '@/components/Spinner';
import { SelectRow } from './SelectRow';
import { applyThemeClass, DEFAULT_THEME } from './ThemeOptionsRoot';

/**
 * Settings › General › Theme Options: pick a theme (applied at once, saved with the page) and, for an admin, upload new
 * ones (themes are the server's).
 */
export function ThemeOptions({
  webuiSettings,
  onThemeChange,
  canUpload,
}: {
  /** The page's draft of the `WebUI_Settings` text. */
  webuiSettings: string | undefined;
  onThemeChange: (theme: string) => void;
  canUpload: boolean;
}) {
  const themes = useThemes();
  const upload = useUploadThemes();
  const fileInput = useRef<HTMLInputElement>(null);
  const selected = parseWebUISettings(webuiSettings).theme;
  const saved = useWebUISettings().theme;
  const current = themes.data?.find((theme) => `theme-${theme.ID}` === selected);

  // The choice shows at once; leaving the page without saving puts the saved theme back.
  useEffect(() => {
    applyThemeClass(selected);
  }, [selected]);
  const savedRef = useRef(saved);
  useEffect(() => {
    savedRef.current = saved;
  }, [saved]);
  useEffect(() => () => applyThemeClass(savedRef.current), []);

  const onFiles = (files: FileList | null) => {
    if (!files?.length) return;
    upload.mutate([...files], {
      onSuccess: (results) => {
        for (const result of results) {
          if (result.theme) toast.success(`Theme "${result.theme.Name}" uploaded!`, { autoClose: 3000 });
          else toast.error(`${result.file}: ${result.error?.message ?? 'Upload failed.'}`);
        }
      },
    });
    if (fileInput.current) fileInput.current.value = '';
  };

  return (
    <Panel
      title="Theme Options"
      actions={
        canUpload && (
          <>
            <input
              ref={fileInput}
              type="file"
              accept=".json,.css"
              multiple
              hidden
              data-testid="theme-upload-input"
              onChange={(event) => onFiles(event.target.files)}
            />
            <Button variant="secondary" busy={upload.isPending} onClick={() => fileInput.current?.click()}>
              <Icon path={mdiUpload} size={0.7} />
              Upload Theme
            </Button>
          </>
        )
      }
    >
      <SelectRow label="Theme" className="min-w-56" value={selected} onChange={(event) => onThemeChange(event.target.value)}>
        <option value={DEFAULT_THEME}>Shoko Gray (Default)</option>
        {themes.data?.map((theme) => (
          <option key={theme.ID} value={`theme-${theme.ID}`}>
            {theme.Name}
          </option>
        ))}
        {/* A saved theme whose files were removed still shows what is selected. */}
        {selected !== DEFAULT_THEME && themes.isSuccess && !current && (
          <option value={selected}>{selected.replace(/^theme-/, '')} (missing)</option>
        )}
      </SelectRow>
      {themes.isPending && <Spinner />}
      {themes.isError && (
        <div role="alert" className="text-sm text-danger">
          Themes could not be loaded: {themes.error.message}
        </div>
      )}
      {current && (
        <dl className="grid grid-cols-[8rem_1fr] gap-x-4 gap-y-1 text-sm" data-testid="theme-details">
          <dt className="text-muted">Description</dt>
          <dd>{current.Description || 'No description.'}</dd>
          <dt className="text-muted">Version</dt>
          <dd>{current.Version}</dd>
          <dt className="text-muted">Author</dt>
          <dd>{current.Author}</dd>
        </dl>
      )}
      {themes.isSuccess && !themes.data.length && (
        <p className="text-sm text-muted">
          {canUpload ? 'No uploaded themes yet. Upload a theme definition (.json) or stylesheet (.css).' : 'No uploaded themes yet.'}
        </p>
      )}
    </Panel>
  );
}
