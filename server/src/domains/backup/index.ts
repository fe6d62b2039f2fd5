// Backups of the database and settings: scheduled and on demand, before migrations, restored at the next start.
// This is its public face: what other domains and the wiring may use of it.
export { restoreBackup } from './restore.js';
export type { BackupService } from './backup.service.js';
export { createBackupDomain } from './backup.wiring.js';
export { registerBackupRoutes } from './backup.routes.js';
export { applyPendingRestore } from './restore.js';
