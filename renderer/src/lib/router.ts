import { useEffect, useState } from 'react';

/** Current hash route, e.g. '#/ledger?q=abc' → { path: '/ledger', params }. */
function parseHash(hash: string): { path: string; params: URLSearchParams } {
  const h = hash.replace(/^#/, '') || '/';
  const [p, q] = h.split('?');
  return { path: p || '/', params: new URLSearchParams(q ?? '') };
}

export function useRoute() {
  const [hash, setHash] = useState(() => window.location.hash);
  useEffect(() => {
    const on = () => setHash(window.location.hash);
    window.addEventListener('hashchange', on);
    return () => window.removeEventListener('hashchange', on);
  }, []);
  return parseHash(hash);
}

export function navigate(path: string): void {
  window.location.hash = path;
}
