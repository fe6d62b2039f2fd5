import { mdiMagnify } from '@mdi/js';
import { Icon } from '@/components/Icon';

/**
 * A search input with a magnifier inside it. `className` sizes the box (the default suits a page header);
 * `onPanel` gives the input the darker shade for boxes that sit on a panel instead of the page background.
 */
export function SearchBox(props: {
  label: string;
  value: string;
  /** `event`: the change's native `input` event (an InputEvent when a person or the browser made the change). */
  onChange: (value: string, event: Event) => void;
  /** An input method's composition ended: `value` holds its committed text. */
  onCompositionEnd?: (value: string) => void;
  className?: string;
  placeholder?: string;
  onPanel?: boolean;
}) {
  const { label, value, onChange, onCompositionEnd, className = 'sm:w-72', placeholder = 'Search…', onPanel = false } = props;
  return (
    <label className={`relative flex w-full items-center ${className}`}>
      <Icon path={mdiMagnify} size={0.8} className="pointer-events-none absolute left-2.5 text-muted" />
      <input
        type="search"
        aria-label={label}
        placeholder={placeholder}
        value={value}
        onChange={(event) => onChange(event.target.value, event.nativeEvent)}
        onCompositionEnd={onCompositionEnd && ((event) => onCompositionEnd(event.currentTarget.value))}
        className={`w-full rounded-md border border-border ${onPanel ? 'bg-panel-alt' : 'bg-panel'} py-2 pl-9 pr-3 text-sm placeholder:text-muted focus:border-primary focus:outline-none`}
      />
    </label>
  );
}
