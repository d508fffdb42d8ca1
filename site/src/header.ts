// The header's mobile menu and "More" dropdown: disclosure buttons with aria-expanded,
// closed by Escape (focus returns to the button), an outside click, or following a link.

interface Disclosure {
  button: HTMLButtonElement;
  panel: HTMLElement;
}

function setOpen({ button, panel }: Disclosure, open: boolean): void {
  button.setAttribute('aria-expanded', String(open));
  panel.classList.toggle('hidden', !open);
  button.querySelector('.menu-open-icon')?.classList.toggle('hidden', open);
  button.querySelector('.menu-close-icon')?.classList.toggle('hidden', !open);
  button.querySelector('svg.transition-transform')?.classList.toggle('rotate-180', open);
}

function isOpen({ button }: Disclosure): boolean {
  return button.getAttribute('aria-expanded') === 'true';
}

function disclosure(root: ParentNode, toggleSelector: string): Disclosure | null {
  const button = root.querySelector<HTMLButtonElement>(toggleSelector);
  const id = button?.getAttribute('aria-controls');
  const panel = id ? document.getElementById(id) : null;
  return button && panel ? { button, panel } : null;
}

export function initHeader(root: Document): void {
  const items = [disclosure(root, '[data-menu-toggle]'), disclosure(root, '[data-dropdown-toggle]')].filter((d): d is Disclosure => d !== null);

  for (const item of items) {
    item.button.addEventListener('click', () => setOpen(item, !isOpen(item)));
    // A followed link closes its menu, also for in-page anchors where nothing reloads.
    item.panel.addEventListener('click', (event) => {
      if ((event.target as Element).closest('a')) setOpen(item, false);
    });
  }

  root.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape') return;
    for (const item of items) {
      if (isOpen(item)) {
        setOpen(item, false);
        item.button.focus();
      }
    }
  });

  root.addEventListener('click', (event) => {
    const target = event.target as Node;
    for (const item of items) {
      if (isOpen(item) && !item.button.contains(target) && !item.panel.contains(target)) setOpen(item, false);
    }
  });

  // Tabbing out of the dropdown closes it, as a visitor would expect from a menu.
  const dropdown = items.find((d) => d.button.hasAttribute('data-dropdown-toggle'));
  dropdown?.panel.parentElement?.addEventListener('focusout', (event) => {
    const next = (event as FocusEvent).relatedTarget as Node | null;
    if (next && !dropdown.panel.parentElement?.contains(next)) setOpen(dropdown, false);
  });
}
