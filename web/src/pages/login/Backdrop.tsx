import { useState } from 'react';
import { Link } from 'react-router';
import { imageUrl, useRandomImage } from '@/api/images';

/** A random series backdrop behind the login card, with a link to its series; nothing at all when none exists. */
export function Backdrop() {
  const { data: image } = useRandomImage('Backdrop');
  const [loaded, setLoaded] = useState(false);
  const [failed, setFailed] = useState(false);
  if (!image || failed) return null;
  return (
    <>
      <img
        src={imageUrl(image)}
        alt=""
        onLoad={() => setLoaded(true)}
        onError={() => setFailed(true)}
        className={`pointer-events-none fixed inset-0 -z-10 size-full object-cover transition-opacity duration-700 ${loaded ? 'opacity-40' : 'opacity-0'}`}
      />
      {image.Series && loaded && (
        <Link
          to={`/collection/series/${image.Series.ID}`}
          className="fixed bottom-4 right-4 rounded-md bg-overlay px-3 py-1.5 text-xs text-muted hover:text-text"
        >
          {image.Series.Name}
        </Link>
      )}
    </>
  );
}
