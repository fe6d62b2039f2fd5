import { Type, type Static } from '@sinclair/typebox';

/** A console theme (server.md §7.0): `<home>/themes/<ID>.json` and/or `<ID>.css`; applied as the root class `theme-<ID>`. */
export const WebUITheme = Type.Object({
  ID: Type.String(),
  Name: Type.String(),
  Description: Type.Union([Type.String(), Type.Null()]),
  Author: Type.String(),
  IsPreview: Type.Boolean(),
  IsInstalled: Type.Boolean(),
  Version: Type.String(),
  Tags: Type.Array(Type.String()),
  URL: Type.Union([Type.String(), Type.Null()]),
  /** Present on single-theme, add and update answers; omitted in the list. */
  CSS: Type.Optional(Type.String()),
});
export type WebUITheme = Static<typeof WebUITheme>;

/** `POST WebUI/Theme/AddFromURL` body. */
export const WebUIThemeFromURL = Type.Object({
  URL: Type.String(),
  Preview: Type.Optional(Type.Boolean({ default: false })),
});
export type WebUIThemeFromURL = Static<typeof WebUIThemeFromURL>;
