import { mdiCheckCircle, mdiCircleOutline } from '@mdi/js';
import { useCallback, useMemo, useState } from 'react';
import { NavLink, Outlet, useMatch } from 'react-router';
import type { Credentials } from '@shoko-ts/contract';
import { Icon } from '@/components/Icon';
import { ShokoLogo } from '@/components/ShokoLogo';
import { ServerVersionInfo } from '@/pages/login/ServerVersionInfo';
import { FIRST_RUN_STEPS, SHOKO_IMPORT_STEPS, type FirstRunStep } from './steps';
import { FirstRunContext, type FirstRunWizard } from './wizardContext';

const SAVED_KEY = 'shoko-ts.firstrun.saved';

function loadSaved(): Set<FirstRunStep> {
  try {
    return new Set(JSON.parse(sessionStorage.getItem(SAVED_KEY) ?? '[]') as FirstRunStep[]);
  } catch {
    return new Set();
  }
}

export default function FirstRunLayout() {
  const [saved, setSaved] = useState(loadSaved);
  const [credentials, setCredentials] = useState<Credentials | null>(null);
  // Importing from Shoko Server replaces every step after the acknowledgement.
  const steps = useMatch('/firstrun/import-shoko') ? SHOKO_IMPORT_STEPS : FIRST_RUN_STEPS;

  const markSaved = useCallback((step: FirstRunStep) => {
    setSaved((previous) => {
      const next = new Set(previous).add(step);
      sessionStorage.setItem(SAVED_KEY, JSON.stringify([...next]));
      return next;
    });
  }, []);

  const wizard = useMemo<FirstRunWizard>(() => ({ saved, markSaved, credentials, setCredentials }), [saved, markSaved, credentials]);

  return (
    <FirstRunContext.Provider value={wizard}>
      <div className="flex min-h-full items-center justify-center p-3 md:p-8">
        <div className="flex w-full max-w-5xl flex-col overflow-hidden rounded-2xl border border-border bg-panel shadow-2xl md:min-h-[36rem] md:flex-row">
          <aside className="flex flex-col gap-4 border-b border-border bg-background-alt p-4 md:w-72 md:gap-6 md:p-6 md:border-b-0 md:border-r">
            <div className="flex flex-col gap-1">
              <ShokoLogo />
              <span className="text-xs font-semibold uppercase tracking-widest text-muted">First Run</span>
            </div>
            <ol className="flex flex-wrap gap-1 md:flex-col" aria-label="First-run steps">
              {steps.map((step, index) => {
                const done = (saved as ReadonlySet<string>).has(step.path);
                return (
                  <li key={step.path}>
                    <NavLink
                      to={step.path}
                      data-saved={done || undefined}
                      aria-label={`${index + 1}. ${step.title}${done ? ' (saved)' : ''}`}
                      className={({ isActive }) =>
                        `flex items-center gap-3 rounded-md px-3 py-2 text-sm font-semibold ${isActive ? 'bg-panel-alt text-primary' : 'text-muted hover:text-text'}`
                      }
                    >
                      {({ isActive }) => (
                        <>
                          <Icon path={done ? mdiCheckCircle : mdiCircleOutline} size={0.8} className={done ? 'text-success' : undefined} />
                          {/* On narrow screens only the current step is named; the others stay as markers. */}
                          <span className={isActive ? '' : 'hidden md:inline'}>
                            {index + 1}. {step.title}
                          </span>
                        </>
                      )}
                    </NavLink>
                  </li>
                );
              })}
            </ol>
            <div className="mt-auto hidden md:block">
              <ServerVersionInfo />
            </div>
          </aside>
          <section className="flex flex-1 flex-col p-6 md:p-8">
            <Outlet />
          </section>
        </div>
      </div>
    </FirstRunContext.Provider>
  );
}
