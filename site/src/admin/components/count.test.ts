import { describe, expect, it } from 'vitest';
import { counterTone, length } from './count';

describe('counterTone', () => {
  it('turns orange above the warning level and red above the limit', () => {
    expect(counterTone(250, 250, 300)).toBe('normal');
    expect(counterTone(251, 250, 300)).toBe('warn');
    expect(counterTone(300, 250, 300)).toBe('warn');
    expect(counterTone(301, 250, 300)).toBe('over');
    expect(counterTone(500, 450)).toBe('warn');
  });
});

describe('length', () => {
  it('counts characters as the server does', () => {
    expect(length('a🇺🇸é')).toBe(4);
  });
});
