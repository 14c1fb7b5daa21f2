import { hasThumbnail } from '@quire/contract';
import { calls } from '@quire/contract/calls';
import { useEffect, useRef, useState } from 'react';
import { callApi } from '../lib/api-client';

// A file's thumbnail in a list (GET /api/previews/thumbnail/{id}, fetched signed in and shown
// from an object URL), or a neutral document icon while there is none: a type without
// thumbnails, one not made yet, a refusal. It is decorative (alt=""): the file's name is the
// link beside it. Loaded once the row comes near the screen; each file's answer is kept for
// the page's life (by file and change time, so a new version loads anew), at most LIMIT.

const LIMIT = 300;
const loaded = new Map<string, Promise<string | null>>();

function load(fileId: number, version: string): Promise<string | null> {
  const key = `${fileId}@${version}`;
  const known = loaded.get(key);
  if (known) return known;
  const promise = callApi(calls.preview.fileThumbnail, { params: { id: fileId } }).then(
    (r) => URL.createObjectURL(r.data),
    () => null,
  );
  loaded.set(key, promise);
  if (loaded.size > LIMIT) {
    const [oldest, url] = loaded.entries().next().value as [string, Promise<string | null>];
    loaded.delete(oldest);
    void url.then((u) => u && URL.revokeObjectURL(u));
  }
  return promise;
}

/** Forgets every kept thumbnail (tests; a sign-out). */
export function forgetThumbnails() {
  for (const url of loaded.values()) void url.then((u) => u && URL.revokeObjectURL(u));
  loaded.clear();
}

export function Thumbnail({
  fileId,
  mimeType,
  version,
}: {
  fileId: number;
  mimeType: string | null;
  /** What changes with the content (the file's updated_at). */
  version: string;
}) {
  const box = useRef<HTMLSpanElement>(null);
  const [near, setNear] = useState(typeof IntersectionObserver === 'undefined');
  const [url, setUrl] = useState<string | null>(null);
  const wanted = hasThumbnail(mimeType);

  useEffect(() => {
    if (!wanted || near || !box.current) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) setNear(true);
      },
      { rootMargin: '200px' },
    );
    observer.observe(box.current);
    return () => observer.disconnect();
  }, [wanted, near]);

  useEffect(() => {
    if (!wanted || !near) return;
    let live = true;
    void load(fileId, version).then((u) => live && setUrl(u));
    return () => {
      live = false;
    };
  }, [wanted, near, fileId, version]);

  return (
    <span className="thumbnail" ref={box} data-state={url ? 'image' : 'icon'}>
      {url ? (
        <img src={url} alt="" className="thumbnail__image" />
      ) : (
        <svg className="thumbnail__icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
          <path d="M6 2h8l5 5v15H6z" fill="none" stroke="currentColor" strokeWidth="1.5" />
          <path d="M14 2v5h5" fill="none" stroke="currentColor" strokeWidth="1.5" />
        </svg>
      )}
    </span>
  );
}
