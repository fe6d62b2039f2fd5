import { Type, type Static, type TSchema } from '@sinclair/typebox';

/** contract files.md §1.15: renamers, their settings and configs, relocation inputs and results. */
const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

export const RENAMER_SETTING_TYPES = ['Auto', 'Code', 'Text', 'LargeText', 'Integer', 'Decimal', 'Boolean'] as const;
export const RenamerSettingType = Type.Union(RENAMER_SETTING_TYPES.map((t) => Type.Literal(t)));
export type RenamerSettingType = (typeof RENAMER_SETTING_TYPES)[number];

export const CODE_LANGUAGES = [
  'PlainText',
  'CSharp',
  'Java',
  'JavaScript',
  'TypeScript',
  'Lua',
  'Python',
  'Ini',
  'Json',
  'Yaml',
  'Xml',
] as const;
export const CodeLanguage = Type.Union(CODE_LANGUAGES.map((t) => Type.Literal(t)));
export type CodeLanguage = (typeof CODE_LANGUAGES)[number];

/** `Language` only on Code settings; `MinimumValue`/`MaximumValue` only with a range. */
export const RenamerSettingDefinition = Type.Object({
  Name: Type.String(),
  Description: Nullable(Type.String()),
  SettingType: RenamerSettingType,
  Language: Type.Optional(CodeLanguage),
  MinimumValue: Type.Optional(Type.Number()),
  MaximumValue: Type.Optional(Type.Number()),
});
export type RenamerSettingDefinition = Static<typeof RenamerSettingDefinition>;

export const RenamerSettingValue = Type.Union([Type.Boolean(), Type.Number(), Type.String(), Type.Null()]);
export type RenamerSettingValue = Static<typeof RenamerSettingValue>;

export const RenamerSetting = Type.Object({ Name: Type.String(), Value: Type.Optional(RenamerSettingValue) });
export type RenamerSetting = { Name: string; Value?: RenamerSettingValue };

export const Renamer = Type.Object({
  RenamerID: Type.String(),
  Version: Nullable(Type.String()),
  Name: Type.String(),
  Description: Type.String(),
  Enabled: Type.Boolean(),
  Settings: Nullable(Type.Array(RenamerSettingDefinition)),
  DefaultSettings: Nullable(Type.Array(RenamerSetting)),
});
export type Renamer = Static<typeof Renamer>;

export const RenamerConfig = Type.Object({
  RenamerID: Type.String(),
  Name: Type.String(),
  Settings: Nullable(Type.Array(RenamerSetting)),
});
export type RenamerConfig = { RenamerID: string; Name: string; Settings: RenamerSetting[] | null };

/** Body of config create/save: fields are checked by the server so a missing one is a 400 naming it. */
export const RenamerConfigInput = Type.Object({
  RenamerID: Type.Optional(Nullable(Type.String())),
  Name: Type.Optional(Nullable(Type.String())),
  Settings: Type.Optional(
    Nullable(Type.Array(Type.Object({ Name: Type.Optional(Nullable(Type.String())), Value: Type.Optional(Type.Unknown()) }))),
  ),
});
export type RenamerConfigInput = Static<typeof RenamerConfigInput>;

export const BatchRelocateBody = Type.Object({
  FileIDs: Type.Array(Type.Integer()),
  Config: Type.Optional(Nullable(RenamerConfigInput)),
});
export type BatchRelocateBody = Static<typeof BatchRelocateBody>;

export const RelocateBody = Type.Object({
  ImportFolderID: Type.Integer(),
  RelativePath: Type.String(),
  DeleteEmptyDirectories: Type.Optional(Type.Boolean({ default: true })),
});
export type RelocateBody = Static<typeof RelocateBody>;

/** Optional members are omitted when null (files.md §1.15). */
export const RelocationResult = Type.Object({
  FileID: Type.Integer(),
  FileLocationID: Type.Optional(Type.Integer()),
  ConfigName: Type.Optional(Type.String()),
  ImportFolderID: Type.Optional(Type.Integer()),
  IsSuccess: Type.Boolean(),
  IsRelocated: Type.Optional(Type.Boolean()),
  IsPreview: Type.Optional(Type.Boolean()),
  ErrorMessage: Type.Optional(Type.String()),
  RelativePath: Type.Optional(Type.String()),
  AbsolutePath: Type.Optional(Type.String()),
});
export type RelocationResult = Static<typeof RelocationResult>;

/** shoko-ts extension: one journaled relocation batch, for the undo of a batch. */
export const RelocationBatch = Type.Object({
  BatchID: Type.String(),
  CreatedAt: Type.String(),
  Files: Type.Integer(),
  Committed: Type.Integer(),
  RolledBack: Type.Integer(),
  Undone: Type.Boolean(),
});
export type RelocationBatch = Static<typeof RelocationBatch>;

/** `Renamer/Config/{configName}`. */
export const RenamerConfigParams = Type.Object({ configName: Type.String() });
export type RenamerConfigParams = Static<typeof RenamerConfigParams>;

/** Preview flags: unset ones come from the config's defaults. */
export const RelocateFlagsQuery = Type.Object({
  move: Type.Optional(Type.Boolean()),
  rename: Type.Optional(Type.Boolean()),
  allowRelocationInsideDestination: Type.Optional(Type.Boolean()),
});
export type RelocateFlagsQuery = Static<typeof RelocateFlagsQuery>;

export const RelocateQuery = Type.Object({ ...RelocateFlagsQuery.properties, deleteEmptyDirectories: Type.Boolean({ default: true }) });
export type RelocateQuery = Static<typeof RelocateQuery>;

/** A JSON array of file ids; null (or a missing body) is a 400 from the server. */
export const RelocateFileIdsBody = Type.Union([Type.Array(Type.Integer()), Type.Null()]);
export type RelocateFileIdsBody = Static<typeof RelocateFileIdsBody>;

/** `Renamer/Relocate/Location/{locationID}`. */
export const RelocateLocationParams = Type.Object({ locationID: Type.Integer({ minimum: 1 }) });
export type RelocateLocationParams = Static<typeof RelocateLocationParams>;

/** `Renamer/Journal/{batchID}/Undo`. */
export const RelocationBatchParams = Type.Object({ batchID: Type.String({ minLength: 1 }) });
export type RelocationBatchParams = Static<typeof RelocationBatchParams>;

/** The answer of an undo: how many files went back, and the ones that could not. */
export const RelocationUndoResult = Type.Object({
  BatchID: Type.String(),
  Restored: Type.Integer(),
  Failed: Type.Array(Type.Object({ FileID: Type.Integer(), ErrorMessage: Type.String() })),
});
export type RelocationUndoResult = Static<typeof RelocationUndoResult>;

/** `POST Renamer/Config` and `PUT Renamer/Config/{configName}`; null (or a missing body) is a 400 from the server. */
export const RenamerConfigBody = Type.Union([RenamerConfigInput, Type.Null()]);
export type RenamerConfigBody = Static<typeof RenamerConfigBody>;

/** `POST Renamer/Preview`: files and an optional ad-hoc config; null (or a missing body) is a 400 from the server. */
export const RenamerPreviewBody = Type.Union([BatchRelocateBody, Type.Null()]);
export type RenamerPreviewBody = Static<typeof RenamerPreviewBody>;

/** `GET Renamer/{renamerID}`. */
export const RenamerIDParams = Type.Object({ renamerID: Type.String({ minLength: 1 }) });
export type RenamerIDParams = Static<typeof RenamerIDParams>;
