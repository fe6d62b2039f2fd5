import { Type, type Static } from '@sinclair/typebox';

export const LogLevel = Type.Union([
  Type.Literal('Trace'),
  Type.Literal('Debug'),
  Type.Literal('Info'),
  Type.Literal('Warn'),
  Type.Literal('Error'),
  Type.Literal('Fatal'),
]);
export type LogLevel = Static<typeof LogLevel>;

/** One entry of the `/signalr/logging` hub (`GetBacklog` sends up to 5000 of them, oldest first; `Log` sends one). */
export const LogEvent = Type.Object({
  Level: LogLevel,
  TimeStamp: Type.String(),
  LoggerName: Type.String(),
  Caller: Type.String(),
  Message: Type.String(),
});
export type LogEvent = Static<typeof LogEvent>;
