// Finds the server-rendered islands on the page and hydrates each with its component.
// Components load lazily by name, so pages without islands never download React.
import type { ComponentType } from 'react';

type IslandModule = { default: ComponentType<Record<string, unknown>> };

const components = import.meta.glob<IslandModule>(['./islands/*.tsx', '!./islands/*.test.tsx']);

export async function hydrateIslands(root: ParentNode): Promise<void> {
  const elements = [...root.querySelectorAll<HTMLElement>('[data-island]')];
  if (elements.length === 0) return;

  const [{ createElement }, { hydrateRoot }] = await Promise.all([import('react'), import('react-dom/client')]);
  // Islands report to the visitor through toasts; the viewport is client-only.
  void import('./toaster').then(({ mountToaster }) => mountToaster());

  await Promise.all(
    elements.map(async (element) => {
      const name = element.dataset.island ?? '';
      const load = components[`./islands/${name}.tsx`];
      if (!load) {
        console.error(`Island "${name}" has no component in src/islands.`);
        return;
      }
      let props: Record<string, unknown>;
      try {
        props = JSON.parse(element.dataset.props ?? '{}');
      } catch (error) {
        console.error(`Island "${name}" has props that are not valid JSON.`, error);
        return;
      }
      const { default: Component } = await load();
      hydrateRoot(element, createElement(Component, props), {
        onRecoverableError: (error) => console.error(`Island "${name}" did not hydrate cleanly.`, error),
      });
    }),
  );
}
