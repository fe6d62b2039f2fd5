export interface DisabledImagesTable {
  source: string;
  image_type: string;
  image_id: number;
}

/** 0010: preferred image per series and type. */
export interface SeriesPreferredImagesTable {
  series_id: number;
  image_type: string;
  source: string;
  image_id: number;
}

/** 0015: preferred image per episode and type. */
export interface EpisodePreferredImagesTable {
  episode_id: number;
  image_type: string;
  source: string;
  image_id: number;
}

export interface ImageTables {
  disabled_images: DisabledImagesTable;
  series_preferred_images: SeriesPreferredImagesTable;
  episode_preferred_images: EpisodePreferredImagesTable;
}
