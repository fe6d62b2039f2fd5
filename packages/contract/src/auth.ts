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
