// The toolbar's icons: decorative (each button has its own accessible name).
import type { ReactNode } from 'react';

function Icon({ children }: { children: ReactNode }) {
  return (
    <svg
      viewBox="0 0 24 24"
      width="18"
      height="18"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      {children}
    </svg>
  );
}

export const icons = {
  bold: (
    <span aria-hidden="true" className="font-bold">
      B
    </span>
  ),
  italic: (
    <span aria-hidden="true" className="font-serif italic">
      I
    </span>
  ),
  'heading-1': (
    <span aria-hidden="true" className="text-xs font-bold">
      H1
    </span>
  ),
  'heading-2': (
    <span aria-hidden="true" className="text-xs font-bold">
      H2
    </span>
  ),
  'heading-3': (
    <span aria-hidden="true" className="text-xs font-bold">
      H3
    </span>
  ),
  'bulleted-list': (
    <Icon>
      <path d="M9 6h11M9 12h11M9 18h11" />
      <circle cx="4" cy="6" r="1" fill="currentColor" />
      <circle cx="4" cy="12" r="1" fill="currentColor" />
      <circle cx="4" cy="18" r="1" fill="currentColor" />
    </Icon>
  ),
  'numbered-list': (
    <Icon>
      <path d="M10 6h10M10 12h10M10 18h10M4 4v4M3 8h2M3 14.5a1.5 1.5 0 0 1 3 0c0 1.5-3 2-3 3.5h3" />
    </Icon>
  ),
  blockquote: (
    <Icon>
      <path d="M7 7h4v5c0 3-2 5-4 5M15 7h4v5c0 3-2 5-4 5" />
    </Icon>
  ),
  code: (
    <Icon>
      <path d="m8 7-5 5 5 5M16 7l5 5-5 5" />
    </Icon>
  ),
  image: (
    <Icon>
      <rect x="3" y="4" width="18" height="16" rx="2" />
      <circle cx="9" cy="10" r="2" />
      <path d="m21 16-5-5-9 9" />
    </Icon>
  ),
  link: (
    <Icon>
      <path d="M10 14a4 4 0 0 0 5.7 0l3-3a4 4 0 0 0-5.7-5.7l-1 1M14 10a4 4 0 0 0-5.7 0l-3 3a4 4 0 0 0 5.7 5.7l1-1" />
    </Icon>
  ),
  undo: (
    <Icon>
      <path d="M9 14 4 9l5-5M4 9h11a5 5 0 0 1 0 10h-3" />
    </Icon>
  ),
  redo: (
    <Icon>
      <path d="m15 14 5-5-5-5M20 9H9a5 5 0 0 0 0 10h3" />
    </Icon>
  ),
};
