import { useId } from 'react';

interface IconProps {
  path: string;
  size?: number;
  className?: string;
  title?: string;
  spin?: boolean;
}

const SPIN_KEYFRAMES = '@keyframes icon-spin { to { transform: rotate(360deg) } }';

/**
 * An mdi icon sized in rem (1 = 24 px): its SVG path in a 24 × 24 box, in the text colour; a spinning one turns every
 * two seconds. Drawn here rather than with @mdi/react, whose component and prop-types would load with the entry.
 */
export function Icon({ path, size = 1, className, title, spin }: IconProps) {
  const titleId = useId();
  const width = `${size * 1.5}rem`;
  const shape = <path d={path} fill="currentColor" />;
  return (
    <svg
      viewBox="0 0 24 24"
      style={{ width, height: width }}
      className={className}
      role={title ? 'img' : 'presentation'}
      aria-labelledby={title ? titleId : undefined}
    >
      {title && <title id={titleId}>{title}</title>}
      {spin ? (
        <>
          <style>{SPIN_KEYFRAMES}</style>
          <g style={{ animation: 'icon-spin 2s linear infinite', transformOrigin: 'center' }}>
            {shape}
            <rect width="24" height="24" fill="transparent" />
          </g>
        </>
      ) : (
        shape
      )}
    </svg>
  );
}
