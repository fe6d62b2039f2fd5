// What the specs' init scripts leave on the page's window, for code they evaluate in the page to read back.
declare global {
  interface Window {
    /** The Content-Security-Policy violations the page reported, each as "<directive> <blocked URI>". */
    cspViolations: string[];
  }
}

export {};
