/** The player's address for a file, with the episode it is watched as (a file may hold several). */
export const playerPath = (fileId: number, episodeId: number | null) => `/player/${fileId}${episodeId ? `?episode=${episodeId}` : ''}`;
