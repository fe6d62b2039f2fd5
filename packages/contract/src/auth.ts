import { Type, type Static } from '@sinclair/typebox';

/** Login body: lower-case property names on the wire. */
export const AuthUser = Type.Object({
  user: Type.String(),
  pass: Type.String(),
  device: Type.String(),
});
export type AuthUser = Static<typeof AuthUser>;

export const AuthResult = Type.Object({ apikey: Type.String() });
export type AuthResult = Static<typeof AuthResult>;

export const ApikeyResult = Type.Object({
  UserID: Type.Integer(),
  Username: Type.Union([Type.String(), Type.Null()]),
  Device: Type.String(),
});
export type ApikeyResult = Static<typeof ApikeyResult>;

/** `POST /api/auth` as the server reads it: every field may be missing or null, and each missing one is a 400 naming it. */
export const LoginBody = Type.Object({
  user: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  pass: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  device: Type.Optional(Type.Union([Type.String(), Type.Null()])),
});
export type LoginBody = Static<typeof LoginBody>;

/**
 * `POST /api/auth/apikey` (the device name) and `DELETE /api/auth` (a device name or a key): a bare JSON string. Any
 * JSON is accepted so the server can answer a wrong body with its own 400.
 */
export const DeviceOrKeyBody = Type.Unknown();
export type DeviceOrKeyBody = string;

/**
 * `POST /api/auth/ChangePassword` (legacy): the body is the new password as a bare JSON string; `userID` picks another
 * user and is honoured only for admins.
 */
export const AuthChangePasswordBody = Type.Unknown();
export type AuthChangePasswordBody = string;
export const AuthChangePasswordQuery = Type.Object({ userID: Type.Optional(Type.Integer({ minimum: 1 })) });
export type AuthChangePasswordQuery = Static<typeof AuthChangePasswordQuery>;
