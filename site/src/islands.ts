// Finds the server-rendered islands on the page and hydrates each with its component.
// Components load lazily by name, so pages without islands never download React.
import type { ComponentType, ReactNode } from 'react';

type IslandModule = { default: ComponentType<Record<string, unknown>> };

const components = import.meta.glob<IslandModule>(['./islands/*.tsx', '!./islands/*.test.tsx']);

/** Islands report to the visitor through toasts. The viewport is client-only and only
 *  wanted once someone starts on a form, so it loads then (or with the first toast, if
 *  that comes sooner) rather than with the page: a visitor who only reads never pays for it. */
async function loadToasterWhenNeeded(islands: HTMLElement[]): Promise<void> {
  let started = false;
  const load = () => {
    if (started) return;
    started = true;
    void import('./toaster').then(({ mountToaster }) => mountToaster());
  };
  for (const island of islands) island.addEventListener('focusin', load, { once: true });
  const { toastStore } = await import('./lib/toast');
  const unsubscribe = toastStore.subscribe(() => {
    unsubscribe();
    load();
  });
}

export async function hydrateIslands(root: ParentNode): Promise<void> {
  const elements = [...root.querySelectorAll<HTMLElement>('[data-island]')];
  if (elements.length === 0) return;

  const [{ createElement, useEffect }, { hydrateRoot }] = await Promise.all([import('react'), import('react-dom/client')]);
  void loadToasterWhenNeeded(elements);

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
      // Marks the island once its first render has committed: its handlers are live. Tests
      // wait for it; a visitor quicker than that posts the form as plain HTML, which works.
      const Hydrated = ({ children }: { children: ReactNode }) => {
        useEffect(() => {
          element.dataset.hydrated = '';
        }, []);
        return children;
      };
      hydrateRoot(element, createElement(Hydrated, null, createElement(Component, props)), {
        onRecoverableError: (error) => console.error(`Island "${name}" did not hydrate cleanly.`, error),
      });
    }),
  );
}
