import type { Principal } from './principal.js';

/** Who is looking: their id (watch state, votes) and the AniDB tag ids hidden from them. */
export interface Viewer {
  userId: number;
  restrictedTags: number[];
}

/** The user id whose restrictions and watch state apply to a request (null for the first-run principal). */
export const callerId = (principal: Principal | null | undefined): number | null => (principal?.kind === 'user' ? principal.userId : null);
