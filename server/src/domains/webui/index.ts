// The webui domain's public face: what other domains and the wiring may use of it.
export { MultipartForm, acceptMultipart } from './multipart.js';
