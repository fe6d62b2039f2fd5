import { Type, type Static } from '@sinclair/typebox';
import { CollectionImage } from './collection.js';

/** contract collection.md §1 images: the random image the login page and dashboard show, and the image routes' requests. */

/** `GET /api/v3/Image/Random/{type}/Metadata`; the image itself is `/api/v3/Image/{Source}/{Type}/{ID}`. */
export const RandomImageMetadata = Type.Composite([
  CollectionImage,
  Type.Object({ Series: Type.Union([Type.Object({ ID: Type.Integer(), Name: Type.String() }), Type.Null()]) }),
]);
export type RandomImageMetadata = Static<typeof RandomImageMetadata>;

/** `Image/Random/{imageType}` and its `/Metadata`: the type is parsed by the server (aliases, any casing). */
export const RandomImageParams = Type.Object({ imageType: Type.String() });
export type RandomImageParams = Static<typeof RandomImageParams>;

export const RandomImageMetadataQuery = Type.Object({
  includeRestricted: Type.Optional(Type.String()),
  seriesType: Type.Optional(Type.Union([Type.String(), Type.Array(Type.String())])),
  maxAttempts: Type.Integer({ minimum: 0, maximum: 100, default: 5 }),
});
export type RandomImageMetadataQuery = Static<typeof RandomImageMetadataQuery>;

/** `Image/{source}/{type}/{value}`: source and type are parsed by the server (any casing). */
export const ImageParams = Type.Object({ source: Type.String(), type: Type.String(), value: Type.Integer({ minimum: 1 }) });
export type ImageParams = Static<typeof ImageParams>;

export const ImageEnabledBody = Type.Object({ Enabled: Type.Boolean() });
export type ImageEnabledBody = Static<typeof ImageEnabledBody>;
