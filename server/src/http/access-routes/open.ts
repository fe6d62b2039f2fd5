/** Routes open without an account (`public`) and the first-run setup's (`firstRun`); classes in ../access-policy.ts. */
export const PUBLIC_ROUTES = [
  'POST /api/auth',
  'GET /api/v3/Init/Version',
  'GET /api/v3/Init/Status',
  'GET /api/v3/Init/Connectivity',
  'GET /api/v3/Init/InUse',
  // Anonymous so <img> tags and the login background work (collection.md §9).
  'GET /api/v3/Image/{Source}/{Type}/{ID}',
  'GET /api/v3/Image/Random/{imageType}',
  'GET /api/v3/Image/Random/{imageType}/Metadata',
  // The login page is themed before anyone logs in.
  'GET /api/v3/WebUI/Theme',
  'GET /api/v3/WebUI/Theme.css',
  'GET /api/v3/WebUI/Theme/{themeID}',
  // Acts only while no console is installed (a bootstrapper).
  'GET /api/v3/WebUI/Install',
  'POST /api/v3/WebUI/Install',
  // Plex's webhook: key-less calls act only for the linked Plex accounts (domains/integrations/plex-webhook.ts).
  'POST /plex',
  'POST /plex.json',
  'GET /healthz',
  // A <video> element cannot send the key header: these take the key or a signed playback token (issue 43), and the
  // handler refuses a request with neither (401) or with a forged, expired or other file's token (403).
  'GET /api/v3/File/{fileID}/Stream',
  'GET /api/v3/File/{fileID}/StreamDirectory/ExternalSub/{filename}',
  'GET /api/v3/Playback/Session/{sessionID}/{name}',
  'POST /api/v3/Playback/Session/{sessionID}/Stop',
  'POST /api/v3/Playback/Session/{sessionID}/KeepAlive',
  'GET /api/v3/Playback/File/{fileID}/Subtitle/{subtitleID}',
  'GET /api/v3/Playback/File/{fileID}/Font/{index}',
  // The first-run wizard follows the Shoko import it started before any account exists.
  'GET /api/v3/ShokoImport/Status',
  'GET /',
  'GET /index.html',
  'GET /webui',
  'GET /webui/index.html',
  'GET /webui/{*path}',
] as const;

export const FIRST_RUN_ROUTES = [
  'GET /api/v3/Init/DefaultUser',
  'POST /api/v3/Init/DefaultUser',
  'GET /api/v3/Init/Database/Test',
  'POST /api/v3/ShokoImport/DryRun',
  'POST /api/v3/ShokoImport/Start',
] as const;
