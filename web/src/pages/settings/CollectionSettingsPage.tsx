import { parseWebUISettings } from '@/api/settings';
import { mergeCollectionSettings, type CollectionSettings } from '@/components/collection/collectionSettings';
import { Panel } from '@/components/Panel';
import { SelectRow } from '@/components/settings/SelectRow';
import { SettingsPage } from '@/components/settings/SettingsPage';
import { useSettingsDraft } from '@/components/settings/useSettingsDraft';
import { Toggle } from '@/components/Toggle';

type Section = Exclude<keyof CollectionSettings, 'view'>;

/** Settings › Collection: how the collection shows groups and series (WebUI_Settings.collection), saved with the settings. */
export default function CollectionSettingsPage() {
  const draft = useSettingsDraft();
  const text = draft.get<string>('WebUI_Settings');
  const collection = mergeCollectionSettings((parseWebUISettings(text) as { collection?: unknown }).collection);
  const update = (next: CollectionSettings) =>
    draft.set('WebUI_Settings', JSON.stringify({ ...parseWebUISettings(text), collection: next }));
  const option = <S extends Section>(section: S, key: keyof CollectionSettings[S] & string, label: string, description?: string) => (
    <Toggle
      label={label}
      description={description}
      checked={!!collection[section][key]}
      onChange={(value) => update({ ...collection, [section]: { ...collection[section], [key]: value } })}
    />
  );

  return (
    <SettingsPage title="Collection Settings" draft={draft}>
      <Panel title="Collection View">
        <SelectRow
          label="Default View"
          value={collection.view}
          onChange={(event) => update({ ...collection, view: event.target.value === 'list' ? 'list' : 'poster' })}
        >
          <option value="poster">Poster</option>
          <option value="list">List</option>
        </SelectRow>
      </Panel>
      <Panel title="Poster View">
        {option('poster', 'showEpisodeCount', 'Show Episode Count')}
        {option('poster', 'showGroupIndicator', 'Show Group Indicator', 'Marks groups that hold more than one series.')}
        {option('poster', 'showUnwatchedCount', 'Show Unwatched Count')}
      </Panel>
      <Panel title="List View">
        {option('list', 'showItemType', 'Show Item Type')}
        {option('list', 'showGroupIndicator', 'Show Group Indicator', 'Marks groups that hold more than one series.')}
        {option('list', 'showTopTags', 'Show Top Tags')}
        {option('list', 'showCustomTags', 'Show Custom Tags')}
      </Panel>
      <Panel title="Images">
        {option('image', 'showRandomPoster', 'Show Random Poster', 'Pick a different poster on each visit instead of the preferred one.')}
        {option('image', 'showRandomBackdrop', 'Show Random Backdrop', 'Pick a different backdrop on each visit of a series page.')}
        {option('image', 'useThumbnailFallback', 'Use Thumbnail Fallback')}
      </Panel>
      <Panel title="Metadata">
        {option('anidb', 'filterDescription', 'Filter AniDB Descriptions', 'Hide source notes and links in AniDB descriptions.')}
        {option('tmdb', 'includeRestricted', 'Include Restricted TMDB Results', 'Show adult-flagged results when searching TMDB.')}
      </Panel>
    </SettingsPage>
  );
}
