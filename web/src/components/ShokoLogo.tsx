/** The wordmark: our own drawing, not Shoko's artwork. */
export function ShokoLogo({ className = '' }: { className?: string }) {
  return (
    <span className={`inline-flex items-center gap-2 font-semibold tracking-wide ${className}`}>
      <svg viewBox="0 0 32 32" className="size-7" aria-hidden="true">
        <rect width="32" height="32" rx="7" fill="var(--color-panel-alt)" />
        <path
          d="M9 21.5c1.6 1.3 3.8 2 6.3 2 3.6 0 6-1.7 6-4.3 0-2.4-1.7-3.5-5.2-4.3-2.6-.6-3.4-1-3.4-2 0-.9.9-1.6 2.6-1.6 1.6 0 3 .5 4.2 1.4l1.7-2.6C19.7 9 17.8 8.4 15.5 8.4c-3.5 0-5.8 1.9-5.8 4.5 0 2.6 1.8 3.6 5.2 4.3 2.5.6 3.3 1 3.3 2 0 1-1 1.7-2.8 1.7-2 0-3.6-.6-5-1.8z"
          fill="var(--color-primary)"
        />
      </svg>
      <span className="text-lg">Shoko</span>
    </span>
  );
}
