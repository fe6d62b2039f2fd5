import MdiIcon from '@mdi/react';

interface IconProps {
  path: string;
  size?: number;
  className?: string;
  title?: string;
  spin?: boolean;
}

/** An mdi icon sized in rem (1 = 24 px). */
export function Icon({ path, size = 1, className, title, spin }: IconProps) {
  return <MdiIcon path={path} size={size} className={className} title={title} spin={spin} />;
}
