import type { ButtonHTMLAttributes } from 'react';
import { Icon } from '@/components/Icon';

const hovers = { text: 'hover:text-text', primary: 'hover:text-primary', danger: 'hover:text-danger' };

interface IconButtonProps extends Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'children' | 'type'> {
  /** The mdi icon path. */
  icon: string;
  /** What the button does, for assistive tech (the icon has no text). */
  label: string;
  /** Icon size in rem; 0.8 unless told. */
  size?: number;
  /** The colour the icon takes on hover. */
  hover?: keyof typeof hovers;
}

/** A small muted button that shows only an icon. */
export function IconButton({ icon, label, size = 0.8, hover = 'text', className, ...rest }: IconButtonProps) {
  return (
    <button
      type="button"
      aria-label={label}
      className={`rounded p-1 text-muted ${hovers[hover]}${className ? ` ${className}` : ''}`}
      {...rest}
    >
      <Icon path={icon} size={size} />
    </button>
  );
}
