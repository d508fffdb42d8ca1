import { useEffect, useState } from 'react';

interface Card {
  title: string;
  description: string;
  href: string;
  imageAlt: string;
  image: { src: string; srcset: string; width: number; height: number };
}

interface Props {
  cards: Card[];
  label: string;
}

/** The index after moving `step` from `index` among `count` items, wrapping around. */
export function wrapIndex(index: number, step: number, count: number): number {
  return (((index + step) % count) + count) % count;
}

function PromoCard({ card }: { card: Card }) {
  return (
    <article className="group relative flex h-full flex-col overflow-hidden rounded-xl bg-white shadow-sm ring-1 ring-slate-200 transition focus-within:ring-2 focus-within:ring-gold hover:shadow-lg">
      <img
        src={card.image.src}
        srcSet={card.image.srcset}
        sizes="(min-width: 1280px) 300px, (min-width: 640px) 70vw, 90vw"
        width={card.image.width}
        height={card.image.height}
        alt={card.imageAlt}
        loading="lazy"
        decoding="async"
        className="aspect-[3/2] w-full object-cover"
      />
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

/**
 * The home page's promo cards: one row on extra-wide screens, a carousel below that.
 * Before hydration (or without JavaScript) the carousel is a swipeable row showing every
 * card; once hydrated it shows one card at a time with wrapping buttons and dots.
 */
export default function PromoCarousel({ cards, label }: Props) {
  const [index, setIndex] = useState(0);
  const [enhanced, setEnhanced] = useState(false);
  useEffect(() => setEnhanced(true), []);
  const count = cards.length;

  return (
    <>
      <ul className="hidden gap-6 xl:grid xl:grid-cols-4" data-testid="cards-row">
        {cards.map((card) => (
          <li key={card.href}>
            <PromoCard card={card} />
          </li>
        ))}
      </ul>
      <section className="xl:hidden" aria-roledescription="carousel" aria-label={label} data-testid="cards-carousel">
        <div
          aria-live="polite"
          className={enhanced ? 'mx-auto max-w-xl' : 'flex snap-x snap-mandatory gap-4 overflow-x-auto pb-4'}
        >
          {cards.map((card, i) => (
            <div
              key={card.href}
              role="group"
              aria-roledescription="slide"
              aria-label={`${i + 1} of ${count}`}
              hidden={enhanced && i !== index}
              className={enhanced ? '' : 'w-[85%] max-w-md shrink-0 snap-center'}
            >
              <PromoCard card={card} />
            </div>
          ))}
        </div>
        <div className="mt-6 flex items-center justify-center gap-3" hidden={!enhanced}>
          <button
            type="button"
            className="carousel-button"
            aria-label="Previous card"
            onClick={() => setIndex((i) => wrapIndex(i, -1, count))}
          >
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
                onClick={() => setIndex(i)}
              >
                <span aria-hidden="true" />
              </button>
            ))}
          </div>
          <button
            type="button"
            className="carousel-button"
            aria-label="Next card"
            onClick={() => setIndex((i) => wrapIndex(i, 1, count))}
          >
            <svg aria-hidden="true" viewBox="0 0 20 20" className="h-5 w-5 rotate-180" fill="none" stroke="currentColor" strokeWidth="2">
              <path d={arrow} />
            </svg>
          </button>
        </div>
      </section>
    </>
  );
}
