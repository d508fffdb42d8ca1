import { describe, expect, it } from 'vitest';
import { wrapIndex } from './PromoCarousel';

describe('wrapIndex', () => {
  it('wraps forwards past the last card and backwards past the first', () => {
    expect(wrapIndex(3, 1, 4)).toBe(0);
    expect(wrapIndex(0, -1, 4)).toBe(3);
    expect(wrapIndex(1, 1, 4)).toBe(2);
  });
});
