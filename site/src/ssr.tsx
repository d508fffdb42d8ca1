// Server-side bundle: renders one island to HTML. Used at build time by
// scripts/render-islands.mjs; the same components hydrate in the browser.
import type { ComponentType } from 'react';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';

type IslandModule = { default: ComponentType<Record<string, unknown>> };

const components = import.meta.glob<IslandModule>(['./islands/*.tsx', '!./islands/*.test.tsx'], { eager: true });

export function renderIsland(name: string, props: Record<string, unknown>): string {
  const module = components[`./islands/${name}.tsx`];
  if (!module) throw new Error(`Unknown island "${name}": there is no src/islands/${name}.tsx`);
  return renderToString(createElement(module.default, props));
}
