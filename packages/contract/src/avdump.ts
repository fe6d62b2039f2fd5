import { Type, type Static } from '@sinclair/typebox';

/** AVDumpController requests (contract files.md §9); `DumpFiles`' body and the per-file status are in files.ts. */

/** `POST AVDump/Update`: accepted and answered `false` (the server never downloads AVDump itself). */
export const AVDumpUpdateQuery = Type.Object({ force: Type.Boolean({ default: false }) });
export type AVDumpUpdateQuery = Static<typeof AVDumpUpdateQuery>;

/** `POST File/{fileID}/AVDump`. */
export const FileAVDumpQuery = Type.Object({ priority: Type.Boolean({ default: false }), immediate: Type.Boolean({ default: true }) });
export type FileAVDumpQuery = Static<typeof FileAVDumpQuery>;

/** `GET AVDump/Status`: whether an AVDump the owner installed is there, and its version. */
export const AVDumpStatus = Type.Object({
  Installed: Type.Boolean(),
  InstalledVersion: Type.Union([Type.String(), Type.Null()]),
  ExpectedVersion: Type.Union([Type.String(), Type.Null()]),
});
export type AVDumpStatus = Static<typeof AVDumpStatus>;
