import { createContext, useContext } from 'react';
import type { Credentials } from '@shoko-ts/contract';
import type { FirstRunStep } from './steps';

export interface FirstRunWizard {
  saved: ReadonlySet<FirstRunStep>;
  markSaved: (step: FirstRunStep) => void;
  /** The local account chosen in step 2, kept in memory only, to log in once the server has started. */
  credentials: Credentials | null;
  setCredentials: (credentials: Credentials) => void;
}

export const FirstRunContext = createContext<FirstRunWizard | null>(null);

export function useFirstRun(): FirstRunWizard {
  const wizard = useContext(FirstRunContext);
  if (!wizard) throw new Error('useFirstRun outside the first-run wizard');
  return wizard;
}
