import { mdiStar, mdiStarOutline } from '@mdi/js';
import { useState } from 'react';
import { Icon } from '@/components/Icon';

const STARS = 10;

interface StarRatingProps {
  value: number;
  onRate: (stars: number) => void;
  disabled?: boolean;
  /** The radio group's accessible name. */
  label?: string;
  /** Icon size in mdi units. */
  size?: number;
}

/** Ten stars for a 1–10 rating; hovering previews, clicking votes. */
export function StarRating({ value, onRate, disabled, label = 'Series rating', size = 0.8 }: StarRatingProps) {
  const [hover, setHover] = useState<number | null>(null);
  const shown = hover ?? Math.round(value);
  return (
    // The pointer leaving the row of stars ends the preview (the wrapper holds the handler so the radiogroup needs no focus).
    <div className="flex" onMouseLeave={() => setHover(null)}>
      <div className="flex" role="radiogroup" aria-label={label}>
        {Array.from({ length: STARS }, (_, index) => {
          const stars = index + 1;
          return (
            <button
              key={stars}
              type="button"
              role="radio"
              aria-checked={Math.round(value) === stars}
              aria-label={`${stars} ${stars === 1 ? 'star' : 'stars'}`}
              disabled={disabled}
              onMouseEnter={() => setHover(stars)}
              onClick={() => onRate(stars)}
              className={`p-0.5 disabled:cursor-not-allowed ${stars <= shown ? 'text-primary' : 'text-muted'}`}
            >
              <Icon path={stars <= shown ? mdiStar : mdiStarOutline} size={size} />
            </button>
          );
        })}
      </div>
    </div>
  );
}
