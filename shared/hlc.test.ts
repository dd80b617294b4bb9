import { describe, expect, it } from 'vitest';
import { HlcClock, compareHlc, parseHlc } from './hlc';

describe('HlcClock', () => {
  it('issues strictly increasing stamps even when the wall clock stands still', () => {
    const clock = new HlcClock('bench-a', () => 1000);
    const a = clock.tick();
    const b = clock.tick();
    expect(compareHlc(a, b)).toBe(-1);
    expect(parseHlc(b)).toEqual({ ms: 1000, counter: 1, node: 'bench-a' });
  });

  it('sorts after a remote stamp from a clock running ahead', () => {
    const clock = new HlcClock('a', () => 1000);
    clock.observe('000000000005000:000003:b');
    const next = clock.tick();
    expect(next > '000000000005000:000003:b').toBe(true);
  });

  it('breaks ties by node id', () => {
    const a = new HlcClock('a', () => 7).tick();
    const b = new HlcClock('b', () => 7).tick();
    expect(compareHlc(a, b)).toBe(-1);
  });
});
