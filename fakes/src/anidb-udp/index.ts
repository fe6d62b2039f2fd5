export { startFakeAniDBUdp, type FakeAniDBUdp, type FakeAniDBUdpOptions, type FakeUdpScenario } from './server.js';
export { builtInCommands, type FakeUdpCommand, type FakeUdpContext, type FakeUdpSession } from './commands.js';
export { escapeReplyField, formatReply, parseRequest, type FakeUdpReply, type FakeUdpRequest } from './protocol.js';
export { fileCommands, type FakeAniDBFile, type FakeReleaseGroup } from './file-commands.js';
export { updatedCommand, type FakeAnimeUpdate } from './updated-command.js';
export { anidbStrictRules, StrictAniDB, type StrictBan, type StrictRules } from '../anidb-strict/index.js';
