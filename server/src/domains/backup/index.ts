// The backup domain's public face: what other domains and the wiring may use of it.
export { restoreBackup } from './restore.js';
export type { BackupService } from './backup.service.js';
export { createBackupDomain } from './backup.wiring.js';
export { registerBackupRoutes } from './backup.routes.js';
export { applyPendingRestore } from './restore.js';
