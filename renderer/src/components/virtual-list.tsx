import { useEffect, useRef, useState, type ReactNode } from 'react';

/**
 * Fixed-height virtualised list: only the rows in view (plus a small overscan) are in the
 * DOM, so 100,000 rows scroll like 50.
 */
export function VirtualList<T>({
  items,
  rowHeight,
  height,
  overscan = 8,
  row,
  testId,
  scrollToIndex,
}: {
  items: T[];
  rowHeight: number;
  height: number | string;
  overscan?: number;
  row: (item: T, index: number, style: React.CSSProperties) => ReactNode;
  testId?: string;
  scrollToIndex?: number | null;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [viewH, setViewH] = useState(600);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const ro = new ResizeObserver(() => setViewH(el.clientHeight));
    ro.observe(el);
    setViewH(el.clientHeight);
    return () => ro.disconnect();
  }, []);
  useEffect(() => {
    const el = ref.current;
    if (!el || scrollToIndex === null || scrollToIndex === undefined || scrollToIndex < 0) return;
    const top = scrollToIndex * rowHeight;
    if (top < el.scrollTop || top + rowHeight > el.scrollTop + el.clientHeight) el.scrollTop = Math.max(0, top - el.clientHeight / 2);
  }, [scrollToIndex, rowHeight]);
  const first = Math.max(0, Math.floor(scrollTop / rowHeight) - overscan);
  const last = Math.min(items.length, Math.ceil((scrollTop + viewH) / rowHeight) + overscan);
  const rows: ReactNode[] = [];
  for (let i = first; i < last; i++) rows.push(row(items[i] as T, i, { top: i * rowHeight, height: rowHeight }));
  return (
    <div ref={ref} className="vlist" style={{ height }} data-testid={testId} onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}>
      <div style={{ height: items.length * rowHeight, position: 'relative' }}>{rows}</div>
    </div>
  );
}
