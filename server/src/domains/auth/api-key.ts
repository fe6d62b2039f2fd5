import { createHash } from 'node:crypto';

/** API keys are random GUIDs (122 bits), so a plain SHA-256 is enough to keep them unreadable at rest. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key.trim().toLowerCase()).digest('hex');
}
