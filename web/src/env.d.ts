/// <reference types="vite/client" />

declare const __WEBUI_VERSION__: string;

interface ImportMetaEnv {
  /** Error-reporting endpoint; unset (the default) means nothing is ever reported. */
  readonly VITE_ERROR_REPORTING_DSN?: string;
}
