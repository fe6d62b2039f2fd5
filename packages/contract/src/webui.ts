import { Type, type Static } from '@sinclair/typebox';

/**
 * Shapes the console owns or reads before their server domains exist. `WebUISettings` is the JSON text stored
 * opaquely in `Settings.WebUI_Settings` (the server never validates it); `ImportFolder` is the import-folder wire
 * model the console already calls (move it to its domain file when that lands, keeping the name).
 */

export const ToastPosition = Type.Union([Type.Literal('bottom-right'), Type.Literal('top-right')]);
export type ToastPosition = Static<typeof ToastPosition>;

export const WebUIUpdateChannel = Type.Union([Type.Literal('Auto'), Type.Literal('Stable'), Type.Literal('Dev')]);
export type WebUIUpdateChannel = Static<typeof WebUIUpdateChannel>;

export const WebUISettings = Type.Object({
  settingsRevision: Type.Integer(),
  theme: Type.String(),
  notifications: Type.Boolean(),
  toastPosition: ToastPosition,
  updateChannel: WebUIUpdateChannel,
  /** Set once the first-run Welcome modal was dismissed ('Set Me Free!'). */
  welcomeDismissed: Type.Optional(Type.Boolean()),
});
export type WebUISettings = Static<typeof WebUISettings>;

/** The console's build stamp, `<webui dir>/version.json`; the server turns it into `Init/Version.WebUI`. */
export const WebUIVersionFile = Type.Object({
  package: Type.String(),
  minimumServerVersion: Type.String(),
  tag: Type.String(),
  git: Type.String(),
  date: Type.String(),
  channel: Type.String(),
  debug: Type.Boolean(),
});
export type WebUIVersionFile = Static<typeof WebUIVersionFile>;

/** Theme list and stylesheet routes: `forceRefresh` re-reads the themes folder. */
export const ThemeRefreshQuery = Type.Object({ forceRefresh: Type.Optional(Type.Boolean({ default: false })) });
export type ThemeRefreshQuery = Static<typeof ThemeRefreshQuery>;

/** `WebUI/Theme/{themeID}`. */
export const ThemeParams = Type.Object({ themeID: Type.String() });
export type ThemeParams = Static<typeof ThemeParams>;

/** `WebUI/LatestVersion` and `WebUI/LatestServerVersion`: channel by name or number (any casing). */
export const WebUIVersionQuery = Type.Object({
  channel: Type.Optional(Type.String()),
  force: Type.Optional(Type.Boolean({ default: false })),
  allowIncompatible: Type.Optional(Type.Boolean({ default: false })),
});
export type WebUIVersionQuery = Static<typeof WebUIVersionQuery>;

/** `WebUI/Install` and `WebUI/Update`. */
export const WebUIUpdateQuery = Type.Object({
  channel: Type.Optional(Type.String()),
  allowIncompatible: Type.Optional(Type.Boolean({ default: false })),
});
export type WebUIUpdateQuery = Static<typeof WebUIUpdateQuery>;

/** `POST /api/webui/config` (legacy v2 stub): any body; the answer is always the same 400. */
export const LegacyWebUIConfigBody = Type.Unknown();
export type LegacyWebUIConfigBody = unknown;
