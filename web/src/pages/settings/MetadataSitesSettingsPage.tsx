import { Panel } from '@/components/Panel';
import { SettingNumber, SettingsPage, SettingToggle } from '@/components/settings/SettingsPage';
import { useSettingsDraft } from '@/components/settings/useSettingsDraft';

export default function MetadataSitesSettingsPage() {
  const draft = useSettingsDraft();
  return (
    <SettingsPage title="Metadata Sites Settings" draft={draft}>
      <Panel title="TMDB Options">
        <SettingToggle draft={draft} path="TMDB.AutoLink" label="Auto Link" />
        <SettingToggle draft={draft} path="TMDB.AutoLinkRestricted" label="Auto Link Restricted" />
        <SettingToggle draft={draft} path="TMDB.DownloadAllTitles" label="Download All Titles" />
        <SettingToggle draft={draft} path="TMDB.DownloadAllOverviews" label="Download All Overviews" />
        <SettingToggle draft={draft} path="TMDB.DownloadAllContentRatings" label="Download All Content Ratings" />
      </Panel>
      <Panel title="TMDB Download Options">
        <SettingToggle draft={draft} path="TMDB.AutoDownloadCrewAndCast" label="Download Cast & Crew" />
        <SettingToggle draft={draft} path="TMDB.AutoDownloadCollections" label="Download Collections" />
        <SettingToggle draft={draft} path="TMDB.AutoDownloadAlternateOrdering" label="Download Alternate Ordering" />
        <SettingToggle draft={draft} path="TMDB.AutoDownloadPosters" label="Download Posters" />
        <SettingNumber draft={draft} path="TMDB.MaxAutoPosters" label="Max Posters" min={0} />
        <SettingToggle draft={draft} path="TMDB.AutoDownloadBackdrops" label="Download Backdrops" />
        <SettingNumber draft={draft} path="TMDB.MaxAutoBackdrops" label="Max Backdrops" min={0} />
        <SettingToggle draft={draft} path="TMDB.AutoDownloadLogos" label="Download Logos" />
        <SettingToggle draft={draft} path="TMDB.AutoDownloadThumbnails" label="Download Thumbnails" />
        <SettingToggle draft={draft} path="TMDB.AutoDownloadStaffImages" label="Download Staff Images" />
        <SettingToggle draft={draft} path="TMDB.AutoDownloadStudioImages" label="Download Studio Images" />
      </Panel>
    </SettingsPage>
  );
}
