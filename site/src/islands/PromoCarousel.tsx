import { useEffect, useRef, useState } from 'react';
import { Picture, type ResponsiveImage } from '../components/Picture';

interface Card {
  title: string;
  description: string;
  href: string;
  imageAlt: string;
  image: ResponsiveImage;
}

interface Props {
  cards: Card[];
  label: string;
}

/** The index after moving `step` from `index` among `count` items, wrapping around. */
export function wrapIndex(index: number, step: number, count: number): number {
  return (((index + step) % count) + count) % count;
}

/** What each card's image really fills: a quarter of the 80rem row at xl, else the
 *  carousel (36rem at most, the page's side padding below that). */
const CARD_SIZES = '(min-width: 1280px) 286px, (min-width: 608px) 576px, calc(100vw - 2rem)';

/**
 * A card's image. Cards the visitor has not scrolled near yet (`deferred`) keep an empty
 * box of the image's shape instead, so their bytes are not spent on a phone that shows one
 * card at a time; without JavaScript the <noscript> copy fills the box as usual.
 */
function CardImage({ card, deferred }: { card: Card; deferred: boolean }) {
  const picture = (className: string) => <Picture image={card.image} alt={card.imageAlt} sizes={CARD_SIZES} className={className} />;
  if (!deferred) return picture('aspect-[3/2] w-full object-cover');
  return (
    <div className="aspect-[3/2] w-full bg-slate-100">
      <noscript>{picture('h-full w-full object-cover')}</noscript>
    </div>
  );
}

function PromoCard({ card, deferred }: { card: Card; deferred: boolean }) {
  return (
    <article className="group relative flex h-full flex-col overflow-hidden rounded-xl bg-white shadow-sm ring-1 ring-slate-200 transition focus-within:ring-2 focus-within:ring-gold hover:shadow-lg">
      <CardImage card={card} deferred={deferred} />
      <div className="flex flex-1 flex-col p-6">
        <h3 className="font-serif text-xl font-bold text-navy">
          <a href={card.href} className="after:absolute after:inset-0 focus-visible:outline-none">
            {card.title}
          </a>
        </h3>
        <p className="mt-2 flex-1 text-slate-700">{card.description}</p>
        <span aria-hidden="true" className="mt-4 text-sm font-semibold text-crimson group-hover:underline">
          Learn more →
        </span>
      </div>
    </article>
  );
}

const arrow = 'M12.5 4.5 7 10l5.5 5.5';

function prefersReducedMotion(): boolean {
  return window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}

/**
 * The home page's promo cards: one row on extra-wide screens, below that a scroll-snap
 * row showing one card at a time. The row is the same box before and after hydration
 * (and without JavaScript, where it is swiped or scrolled); hydration only makes the
 * Previous/Next buttons and the dots visible. They scroll the row, wrapping both ways,
 * and the current dot follows the scroll position, however the visitor scrolled.
 */
export default function PromoCarousel({ cards, label }: Props) {
  const row = useRef<HTMLDivElement>(null);
  const [index, setIndex] = useState(0);
  const [enhanced, setEnhanced] = useState(false);
  // Cards whose images may load: the first, then each one as it comes near the row's view.
  const [near, setNear] = useState(() => cards.map((_, i) => i === 0));
  const count = cards.length;
  const reveal = (i: number) => setNear((was) => (was[i] ? was : was.map((n, j) => n || j === i)));

  useEffect(() => {
    // After hydration on purpose: the server's HTML is the carousel without script.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    setEnhanced(true);
    const root = row.current;
    if (!root) return;
    const slideOf = (entry: IntersectionObserverEntry) => Number((entry.target as HTMLElement).dataset.index);
    // The card most in view is the current one.
    const current = new IntersectionObserver(
      (entries) => {
        for (const entry of entries) if (entry.isIntersecting) setIndex(slideOf(entry));
      },
      { root, threshold: 0.6 },
    );
    // A card is about to be shown once a swipe or scroll brings its edge into the row.
    const approaching = new IntersectionObserver(
      (entries) => {
        for (const entry of entries) if (entry.isIntersecting) reveal(slideOf(entry));
      },
      { root },
    );
    for (const slide of root.children) {
      current.observe(slide);
      approaching.observe(slide);
    }
    return () => {
      current.disconnect();
      approaching.disconnect();
    };
  }, []);

  function show(target: number) {
    const root = row.current;
    const slides = root?.children;
    const slide = slides?.[target] as HTMLElement | undefined;
    if (!root || !slide) return;
    setIndex(target);
    reveal(target);
    // Offsets count from the row's padding box; the first card sits at the scroll start.
    const start = (slides![0] as HTMLElement).offsetLeft;
    root.scrollTo({ left: slide.offsetLeft - start, behavior: prefersReducedMotion() ? 'auto' : 'smooth' });
  }

  return (
    <section aria-roledescription="carousel" aria-label={label} data-testid="promo-cards">
      <div
        ref={row}
        className="carousel-row relative mx-auto flex max-w-xl snap-x snap-mandatory scroll-px-1 gap-4 overflow-x-auto p-1 xl:grid xl:max-w-none xl:grid-cols-4 xl:gap-6 xl:overflow-visible xl:p-0"
      >
        {cards.map((card, i) => (
          <div
            key={card.href}
            data-index={i}
            role="group"
            aria-roledescription="slide"
            aria-label={`${i + 1} of ${count}`}
            className="w-full shrink-0 snap-start xl:w-auto"
          >
            <PromoCard card={card} deferred={!near[i]} />
          </div>
        ))}
      </div>
      {/* Laid out from the first paint (invisible until hydrated), so nothing below moves. */}
      <div className={`mt-6 flex items-center justify-center gap-3 xl:hidden ${enhanced ? '' : 'invisible'}`} data-carousel-controls>
        <button type="button" className="carousel-button" aria-label="Previous card" onClick={() => show(wrapIndex(index, -1, count))}>
          <svg aria-hidden="true" viewBox="0 0 20 20" className="h-5 w-5" fill="none" stroke="currentColor" strokeWidth="2">
            <path d={arrow} />
          </svg>
        </button>
        <div className="flex items-center">
          {cards.map((card, i) => (
            <button
              key={card.href}
              type="button"
              className="carousel-dot"
              aria-label={`Show card ${i + 1}: ${card.title}`}
              aria-current={i === index ? 'true' : undefined}
              onClick={() => show(i)}
            >
              <span aria-hidden="true" />
            </button>
          ))}
        </div>
        <button type="button" className="carousel-button" aria-label="Next card" onClick={() => show(wrapIndex(index, 1, count))}>
          <svg aria-hidden="true" viewBox="0 0 20 20" className="h-5 w-5 rotate-180" fill="none" stroke="currentColor" strokeWidth="2">
            <path d={arrow} />
          </svg>
        </button>
      </div>
    </section>
  );
}
