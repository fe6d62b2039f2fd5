/** An AniDB anime record as read from the HTTP API's `request=anime` XML. Dates are `YYYY-MM-DD` strings. */
export interface AniDBAnime {
  id: number;
  type: AniDBAnimeType;
  /** 18+ (the root element's `restricted` attribute). */
  restricted: boolean;
  /** Regular episodes AniDB expects (0 when unknown); `specialCount` counts the S-episodes in the document. */
  episodeCount: number;
  specialCount: number;
  startDate: string | null;
  endDate: string | null;
  /** The `main` title (every valid record has one). */
  mainTitle: string;
  titles: AniDBTitle[];
  description: string | null;
  /** Poster file name, served from the AniDB image CDN. */
  picture: string | null;
  /** The official site from `<url>`. */
  url: string | null;
  resources: AniDBResource[];
  ratings: { permanent: AniDBRating | null; temporary: AniDBRating | null; review: AniDBRating | null };
  tags: AniDBTag[];
  characters: AniDBCharacter[];
  creators: AniDBCreator[];
  relatedAnime: AniDBRelatedAnime[];
  similarAnime: AniDBSimilarAnime[];
  episodes: AniDBEpisode[];
}

/** The APIv3 names of AniDB's anime types. */
export type AniDBAnimeType = 'TV' | 'Movie' | 'OVA' | 'TVSpecial' | 'Web' | 'Other' | 'MusicVideo' | 'Unknown';

/** The APIv3 names of AniDB's episode types, derived from the epno prefix. */
export type AniDBEpisodeType = 'Episode' | 'Special' | 'Credits' | 'Trailer' | 'Parody' | 'Other' | 'Unknown';

export type AniDBTitleType = 'main' | 'official' | 'synonym' | 'short';

export interface AniDBTitle {
  /** `main`, `official`, `synonym` or `short`; other values AniDB may add are passed through. */
  type: AniDBTitleType | (string & {});
  /** The `xml:lang` code as AniDB sends it (`x-jat`, `ja`, `en`, `zh-Hans`, ...). */
  language: string;
  value: string;
}

export interface AniDBRating {
  /** 0-10 with decimals. */
  value: number;
  count: number;
}

export interface AniDBResource {
  /** AniDB's resource type number (2 = MyAnimeList, 6 = English Wikipedia, ...). */
  type: number;
  /** A readable site name for the known types, otherwise null. */
  site: string | null;
  entities: AniDBExternalEntity[];
}

export interface AniDBExternalEntity {
  identifiers: string[];
  /** The entity's own `<url>`, or (anime resources only) a link built from the first identifier for sites with a known URL pattern. */
  url: string | null;
}

export interface AniDBTag {
  id: number;
  /** null for root tags (`parentid` 0 or absent). */
  parentId: number | null;
  name: string;
  description: string | null;
  /** 0-600; 0 means "weightless" (not voted), not "irrelevant". */
  weight: number;
  localSpoiler: boolean;
  globalSpoiler: boolean;
  verified: boolean;
  updated: string | null;
}

export interface AniDBCharacter {
  id: number;
  /** The `type` attribute: `main character in`, `secondary cast in`, `appears in` or `cameo appearance in`. */
  role: string;
  name: string;
  gender: string | null;
  /** `Character`, `Mecha`, `Organization` or `Vessel`. */
  characterType: string | null;
  description: string | null;
  picture: string | null;
  rating: AniDBRating | null;
  seiyuu: AniDBPerson[];
}

export interface AniDBPerson {
  id: number;
  name: string;
  picture: string | null;
}

export interface AniDBCreator {
  id: number;
  /** The credit: `Direction`, `Music`, `Animation Work`, `Original Work`, ... */
  type: string;
  name: string;
}

export interface AniDBRelatedAnime {
  id: number;
  /** `Sequel`, `Prequel`, `Same Setting`, `Side Story`, ... as AniDB writes it. */
  relation: string;
  title: string;
}

export interface AniDBSimilarAnime {
  id: number;
  approval: number;
  total: number;
  title: string;
}

export interface AniDBEpisode {
  id: number;
  /** The epno text as sent (`12`, `S1`, `C2`, `5-6`). */
  epno: string;
  type: AniDBEpisodeType;
  number: number;
  lengthMinutes: number;
  airDate: string | null;
  rating: AniDBRating | null;
  titles: Array<{ language: string; value: string }>;
  summary: string | null;
  resources: AniDBResource[];
  updated: string | null;
}
