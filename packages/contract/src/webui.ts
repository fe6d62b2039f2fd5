import { Type, type Static } from '@sinclair/typebox';

/**
 * Shapes the console owns or reads before their server domains exist. `WebUISettings` is the JSON text stored
 * opaquely in `Settings.WebUI_Settings` (the server never validates it); `ImportFolder` and `RandomImageMetadata`
 * are the import-folder and image wire models the console already calls (move them to their domain files when
 * those land, keeping the names).
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

/** `GET /api/v3/Image/Random/{type}/Metadata`; the image itself is `/api/v3/Image/{Source}/{Type}/{ID}`. */
export const RandomImageMetadata = Type.Object({
  ID: Type.Union([Type.Integer(), Type.String()]),
  Source: Type.String(),
  Type: Type.String(),
  Series: Type.Union([Type.Object({ ID: Type.Integer(), Name: Type.String() }), Type.Null()]),
});
export type RandomImageMetadata = Static<typeof RandomImageMetadata>;
