// Pictures of AniDB and TMDB: downloads paced per source, the image store and preferred images.
// This is its public face: what other domains and the wiring may use of it.
export { AniDBImagePacer } from './anidb-image-pacer.js';
export { imageLists, listOfType, mainImage, tmdbImageModel } from './image-lists.js';
export type { ImageLists, ListedImage } from './image-lists.js';
export { ImageStore, parseImageSource, parseImageType } from './image-store.js';
export type { ImageSource, ImageType } from './image-store.js';
export { ImagesService } from './images.service.js';
export { queueAniDBImages } from './images.service.js';
export { createImagesDomain } from './images.wiring.js';
export type { ImagesDomain } from './images.wiring.js';
export { preferredImageSourceOf, registerImageRoutes } from './images.routes.js';
