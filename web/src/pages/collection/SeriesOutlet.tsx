import { NavLink, Outlet, useParams } from 'react-router';

const tabs = [
  ['overview', 'Overview'],
  ['episodes', 'Episodes'],
  ['credits', 'Credits'],
  ['images', 'Images'],
  ['tags', 'Tags'],
  ['files', 'Files'],
] as const;

/** The series page frame: its tabs, with each tab's content arriving with the series page feature. */
export default function SeriesOutlet() {
  const { seriesId } = useParams();
  return (
    <div className="flex flex-1 flex-col gap-4 p-4 md:p-6">
      <nav className="flex flex-wrap gap-2" aria-label={`Series ${seriesId} tabs`}>
        {tabs.map(([path, label]) => (
          <NavLink
            key={path}
            to={path}
            className={({ isActive }) =>
              `rounded-md px-3 py-1.5 text-sm font-semibold ${isActive ? 'bg-primary text-on-primary' : 'bg-panel text-muted hover:text-text'}`
            }
          >
            {label}
          </NavLink>
        ))}
      </nav>
      <Outlet />
    </div>
  );
}
