import { useEffect, useRef } from 'react';
import { MAX_GAP_MS, isBurst, isHumanPace, isScanDigit, type FocusKind, type HeldKey } from './scan-burst';
import { isScanTerminator, parseScan, type ScanResult } from './scan';

/**
 * The window's scan service. One capturing keydown listener recognises a keyboard-wedge burst
 * wherever focus is:
 *  - in a scan field (`data-scan-input`): the field shows the digits; Enter/Tab hands its value over;
 *  - in an ordinary field: digits are held back until their pace shows who types them; a burst ending
 *    in Enter/Tab is a scan and never reaches the field, a person's typing goes into the field;
 *  - elsewhere (a button, a row, the page): digits collect until Enter/Tab.
 * Each scan goes to the handler of the current screen (the last one registered), in order.
 */
export type ScanHandler = (scan: Exclude<ScanResult, { kind: 'empty' }>) => void;

const handlers: { fn: ScanHandler }[] = [];
let held: HeldKey[] = [];
let heldTarget: HTMLElement | null = null;
let flushTimer: ReturnType<typeof setTimeout> | null = null;
let installed = false;
/** True while the service itself types held digits into a field (its own input events pass untouched). */
let inserting = false;
/** A person is typing digits into this field: let them through until a pause. */
let human: { el: Element; until: number } | null = null;

/** Hand a raw scan (as read from a field or a burst) to the current screen. */
export function emitScan(raw: string): void {
  const r = parseScan(raw);
  if (r.kind === 'empty') return;
  const top = handlers[handlers.length - 1];
  top?.fn(r);
}

const TEXT_INPUTS = new Set(['', 'text', 'search', 'email', 'tel', 'url', 'password', 'number']);

function focusKind(el: Element | null): FocusKind {
  if (!(el instanceof HTMLElement)) return 'other';
  if (el.closest('[data-scan-input]')) return 'scan-field';
  if (el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement) return 'editable';
  if (el instanceof HTMLInputElement) return TEXT_INPUTS.has(el.type) ? 'editable' : 'other';
  return el.isContentEditable ? 'editable' : 'other';
}

/** Type held digits into the field they were meant for, as if they had not been held. */
function insertInto(el: HTMLElement, text: string): void {
  if (el instanceof HTMLSelectElement) return;
  inserting = true;
  try {
    if (document.activeElement === el && document.execCommand('insertText', false, text)) return;
    if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) {
      setValue(el, el.value + text);
      el.dispatchEvent(new Event('input', { bubbles: true }));
    }
  } finally {
    inserting = false;
  }
}

/** Set a field's value the way React's change tracking sees a user edit. */
function setValue(el: HTMLInputElement | HTMLTextAreaElement, value: string): void {
  const proto = el instanceof HTMLInputElement ? HTMLInputElement.prototype : HTMLTextAreaElement.prototype;
  Object.getOwnPropertyDescriptor(proto, 'value')?.set?.call(el, value);
}

function clearTimer(): void {
  if (flushTimer) clearTimeout(flushTimer);
  flushTimer = null;
}

/** Give the held keys to the field (they were typed by a person). */
function flush(): void {
  clearTimer();
  const keys = held;
  const target = heldTarget;
  held = [];
  heldTarget = null;
  if (target && keys.length && focusKind(target) === 'editable') insertInto(target, keys.map((k) => k.key).join(''));
}

/**
 * The pause timer: held digits go to the field once MAX_GAP_MS have passed since the last key, measured
 * on the clock keyboard events are stamped with. A timer that fires early on that clock (a busy PC runs
 * timers and input out of step) waits for the rest of the pause instead of splitting a burst.
 */
function flushAfterPause(): void {
  const last = held[held.length - 1];
  const since = last ? performance.now() - last.at : MAX_GAP_MS;
  if (since < MAX_GAP_MS) {
    flushTimer = setTimeout(flushAfterPause, MAX_GAP_MS - since);
    return;
  }
  flush();
}

function takeScan(): string {
  clearTimer();
  const raw = held.map((k) => k.key).join('');
  held = [];
  heldTarget = null;
  return raw;
}

function onKeyDown(e: KeyboardEvent): void {
  if (e.isComposing || e.ctrlKey || e.altKey || e.metaKey) {
    if (held.length) flush();
    return;
  }
  const target = document.activeElement;
  const kind = focusKind(target);
  if (kind === 'scan-field') {
    if (held.length) flush();
    return;
  }
  const now = e.timeStamp || performance.now();
  if (isScanDigit(e.key)) {
    e.preventDefault();
    const last = held[held.length - 1];
    if (kind === 'editable') {
      if (human && human.el === target && now <= human.until && held.length === 0) {
        human.until = now + 1000;
        insertInto(target as HTMLElement, e.key);
        return;
      }
      // A long pause ends what was held: it was typed by a person.
      if ((last && now - last.at > MAX_GAP_MS) || (heldTarget && heldTarget !== target)) flush();
      heldTarget = target as HTMLElement;
      held.push({ key: e.key, at: now });
      clearTimer();
      if (isHumanPace(held)) {
        human = { el: target as Element, until: now + 1000 };
        flush();
        return;
      }
      flushTimer = setTimeout(flushAfterPause, MAX_GAP_MS);
    } else {
      if (last && now - last.at > 2000) held = [];
      heldTarget = null;
      held.push({ key: e.key, at: now });
    }
    return;
  }
  if (isScanTerminator(e.key) && held.length) {
    if (kind === 'other' || isBurst(held, now)) {
      e.preventDefault();
      e.stopPropagation();
      emitScan(takeScan());
      return;
    }
    flush();
    return;
  }
  if (held.length) {
    if (kind === 'editable') flush();
    else held = [];
  }
}

/**
 * Text that arrives without key events (an input method's committed text, a paste, dictation) is not
 * part of a scan: the held digits were typed before it, so they go into the field first, in order.
 * `beforeinput` and `compositionstart` come before the text is applied, so flushing there keeps the order.
 */
function onTextComing(): void {
  if (!inserting && held.length) flush();
}

/**
 * An `input` that no `beforeinput` announced (some input methods commit that way): its text is already
 * in the field, so the held digits are put in front of it, where they were typed.
 */
function onInput(e: Event): void {
  if (inserting || !held.length) return;
  const el = e.target;
  if (!(el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) || el !== heldTarget) {
    flush();
    return;
  }
  const text = takeScan();
  const data = e instanceof InputEvent && e.data ? e.data : '';
  let end: number | null = null;
  try {
    end = el.selectionStart;
  } catch {
    end = null;
  }
  const at = end === null ? el.value.length - data.length : Math.max(0, end - data.length);
  setValue(el, el.value.slice(0, at) + text + el.value.slice(at));
  try {
    el.setSelectionRange(at + text.length + data.length, at + text.length + data.length);
  } catch {
    // number and email fields have no selection
  }
}

/** Install the window's listeners once (the app calls this at start). */
export function installScanService(): void {
  if (installed || typeof window === 'undefined') return;
  installed = true;
  window.addEventListener('keydown', onKeyDown, true);
  window.addEventListener('beforeinput', onTextComing, true);
  window.addEventListener('compositionstart', onTextComing, true);
  window.addEventListener('compositionend', onTextComing, true);
  window.addEventListener('paste', onTextComing, true);
  window.addEventListener('input', onInput, true);
}

/** Route scans to this screen while it is mounted (the most recently mounted screen wins). */
export function useScanHandler(fn: ScanHandler): void {
  const ref = useRef(fn);
  ref.current = fn;
  useEffect(() => {
    const entry = { fn: (s: Parameters<ScanHandler>[0]) => ref.current(s) };
    handlers.push(entry);
    return () => {
      const i = handlers.indexOf(entry);
      if (i >= 0) handlers.splice(i, 1);
    };
  }, []);
}
