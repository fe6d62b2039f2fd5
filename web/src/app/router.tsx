import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { FullPageSpinner } from '@/components/FullPageSpinner';
import { CONSOLE_BASENAME } from '@/lib/basePath';
import { AuthGuard } from './AuthGuard';
import {
  loadDashboardPage,
  loadMainLayout,
  prefetchCollectionRoute,
  prefetchDashboardRoute,
  prefetchEpisodesRoute,
  prefetchFileSearchRoute,
  prefetchGroupRoute,
  prefetchReleaseRoute,
  prefetchSeriesOverviewRoute,
  prefetchSeriesRoute,
  prefetchUnrecognizedRoute,
} from './landing';
import { RouteError } from './RouteError';
import { VersionGate } from './VersionGate';

type Lazy = NonNullable<RouteObject['lazy']>;

/** A lazily loaded page whose module's default export is the component. */
const page =
  (load: () => Promise<{ default: React.ComponentType }>): Lazy =>
  async () => ({ Component: (await load()).default });

const firstRunSteps: RouteObject[] = [
  { index: true, element: <Navigate to="acknowledgement" replace /> },
  { path: 'acknowledgement', lazy: page(() => import('@/pages/firstrun/AcknowledgementStep')) },
  { path: 'local-account', lazy: page(() => import('@/pages/firstrun/LocalAccountStep')) },
  { path: 'anidb-account', lazy: page(() => import('@/pages/firstrun/AniDBAccountStep')) },
  { path: 'metadata-sources', lazy: page(() => import('@/pages/firstrun/MetadataSourcesStep')) },
  { path: 'start-server', lazy: page(() => import('@/pages/firstrun/StartServerStep')) },
  { path: 'import-folders', lazy: page(() => import('@/pages/firstrun/ImportFoldersStep')) },
  { path: 'data-collection', lazy: page(() => import('@/pages/firstrun/DataCollectionStep')) },
  { path: 'import-shoko', lazy: page(() => import('@/pages/firstrun/shoko-import/ShokoImportPage')) },
  { path: '*', element: <Navigate to="acknowledgement" replace /> },
];

const seriesPages: RouteObject[] = [
  { index: true, element: <Navigate to="overview" replace /> },
  { path: 'overview', loader: prefetchSeriesOverviewRoute, lazy: page(() => import('@/pages/collection/series/OverviewTab')) },
  { path: 'episodes', loader: prefetchEpisodesRoute, lazy: page(() => import('@/pages/collection/series/EpisodesTab')) },
  { path: 'credits', lazy: page(() => import('@/pages/collection/series/CreditsTab')) },
  { path: 'images', element: <Navigate to="posters" replace /> },
  { path: 'images/:imageType', lazy: page(() => import('@/pages/collection/series/ImagesTab')) },
  { path: 'files', lazy: page(() => import('@/pages/collection/series/FilesTab')) },
  { path: 'tags', lazy: page(() => import('@/pages/collection/series/TagsTab')) },
];

const collectionPages: RouteObject[] = [
  { index: true, loader: prefetchCollectionRoute, lazy: page(() => import('@/pages/collection/CollectionPage')) },
  { path: 'filter/:filterId', lazy: page(() => import('@/pages/collection/CollectionPage')) },
  { path: 'group/:groupId', loader: prefetchGroupRoute, lazy: page(() => import('@/pages/collection/CollectionPage')) },
  { path: 'group/:groupId/filter/:filterId', loader: prefetchGroupRoute, lazy: page(() => import('@/pages/collection/CollectionPage')) },
  {
    path: 'series/:seriesId',
    loader: prefetchSeriesRoute,
    lazy: page(() => import('@/pages/collection/series/SeriesOutlet')),
    children: seriesPages,
  },
  { path: 'series/:seriesId/tmdb-linking', lazy: page(() => import('@/pages/collection/tmdb-linking/TmdbLinkingPage')) },
];

const utilityPages: RouteObject[] = [
  { index: true, element: <Navigate to="unrecognized" replace /> },
  { path: 'unrecognized', element: <Navigate to="files" replace /> },
  {
    path: 'unrecognized/files',
    loader: prefetchUnrecognizedRoute,
    lazy: page(() => import('@/pages/utilities/unrecognized/UnrecognizedFilesPage')),
  },
  { path: 'unrecognized/files/link', lazy: page(() => import('@/pages/utilities/manual-link/ManualLinkPage')) },
  { path: 'unrecognized/manually-linked-files', lazy: page(() => import('@/pages/utilities/manually-linked/ManuallyLinkedFilesPage')) },
  { path: 'unrecognized/ignored-files', lazy: page(() => import('@/pages/utilities/unrecognized/IgnoredFilesPage')) },
  { path: 'release-management', element: <Navigate to="multiples" replace /> },
  {
    path: 'release-management/:itemType',
    loader: prefetchReleaseRoute,
    lazy: page(() => import('@/pages/utilities/release-management/ReleaseManagementPage')),
  },
  { path: 'series-without-files', lazy: page(() => import('@/pages/utilities/series-without-files/SeriesWithoutFilesPage')) },
  { path: 'file-search', loader: prefetchFileSearchRoute, lazy: page(() => import('@/pages/utilities/file-search/FileSearchPage')) },
  { path: 'renamer', lazy: page(() => import('@/pages/renamer/RenamerPage')) },
];

const settingsPages: RouteObject[] = [
  { index: true, element: <Navigate to="general" replace /> },
  { path: 'general', lazy: page(() => import('@/pages/settings/GeneralSettingsPage')) },
  { path: 'import', lazy: page(() => import('@/pages/settings/ImportSettingsPage')) },
  { path: 'anidb', lazy: page(() => import('@/pages/settings/AniDBSettingsPage')) },
  { path: 'metadata-sites', lazy: page(() => import('@/pages/settings/MetadataSitesSettingsPage')) },
  { path: 'collection', lazy: page(() => import('@/pages/settings/CollectionSettingsPage')) },
  { path: 'integrations', lazy: page(() => import('@/pages/settings/IntegrationsSettingsPage')) },
  { path: 'user-management', lazy: page(() => import('@/pages/settings/UserManagementSettingsPage')) },
  { path: 'api-keys', lazy: page(() => import('@/pages/settings/ApiKeysPage')) },
  { path: 'backups', lazy: page(() => import('@/pages/settings/BackupsSettingsPage')) },
];

export const routes: RouteObject[] = [
  {
    path: '/',
    errorElement: <RouteError />,
    hydrateFallbackElement: <FullPageSpinner />,
    children: [
      { path: 'unsupported', lazy: page(() => import('@/pages/unsupported/UnsupportedPage')) },
      {
        element: <VersionGate />,
        children: [
          { path: 'login', lazy: page(() => import('@/pages/login/LoginPage')) },
          { path: 'firstrun', lazy: page(() => import('@/pages/firstrun/FirstRunLayout')), children: firstRunSteps },
          {
            element: <AuthGuard />,
            children: [
              { path: 'player/:fileId', lazy: page(() => import('@/pages/player/PlayerPage')) },
              {
                lazy: page(loadMainLayout),
                children: [
                  { index: true, element: <Navigate to="dashboard" replace /> },
                  { path: 'dashboard', loader: prefetchDashboardRoute, lazy: page(loadDashboardPage) },
                  { path: 'log', lazy: page(() => import('@/pages/log/LogPage')) },
                  { path: 'collection', children: collectionPages },
                  { path: 'utilities', children: utilityPages },
                  { path: 'settings', lazy: page(() => import('@/pages/settings/SettingsLayout')), children: settingsPages },
                  { path: '*', lazy: page(() => import('@/pages/NotFoundPage')) },
                ],
              },
            ],
          },
        ],
      },
    ],
  },
];

export const router = createBrowserRouter(routes, { basename: CONSOLE_BASENAME });
