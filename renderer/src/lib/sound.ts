/**
 * Scan feedback sounds through Web Audio (no audio files): a short high beep when a scan is
 * accepted, two mid beeps for a duplicate, a low buzz for an error. The last sound played is
 * kept on <body data-last-sound> so the outcome can be checked without a speaker.
 */
export type ScanSound = 'ok' | 'duplicate' | 'error';

const TONES: Record<ScanSound, { freq: number; ms: number; wave: OscillatorType; repeat: number }> = {
  ok: { freq: 1320, ms: 90, wave: 'sine', repeat: 1 },
  duplicate: { freq: 660, ms: 90, wave: 'triangle', repeat: 2 },
  error: { freq: 180, ms: 380, wave: 'square', repeat: 1 },
};

let ctx: AudioContext | null = null;

function audio(): AudioContext | null {
  if (ctx) return ctx;
  const Ctor = typeof window !== 'undefined' ? window.AudioContext : undefined;
  if (!Ctor) return null;
  try {
    ctx = new Ctor();
  } catch {
    ctx = null;
  }
  return ctx;
}

export function playScanSound(kind: ScanSound): void {
  if (typeof document !== 'undefined') document.body.dataset.lastSound = kind;
  const ac = audio();
  if (!ac) return;
  if (ac.state === 'suspended') void ac.resume().catch(() => undefined);
  const t = TONES[kind];
  for (let i = 0; i < t.repeat; i++) {
    const start = ac.currentTime + i * (t.ms / 1000 + 0.06);
    const osc = ac.createOscillator();
    const gain = ac.createGain();
    osc.type = t.wave;
    osc.frequency.value = t.freq;
    gain.gain.setValueAtTime(0.0001, start);
    gain.gain.exponentialRampToValueAtTime(0.25, start + 0.01);
    gain.gain.exponentialRampToValueAtTime(0.0001, start + t.ms / 1000);
    osc.connect(gain).connect(ac.destination);
    osc.start(start);
    osc.stop(start + t.ms / 1000 + 0.02);
  }
}
