// A responsive image as the generator's media pipeline describes it (generator/src/media.rs
// `Responsive`): WebP for browsers that take it, JPEG or PNG otherwise, every width in
// `srcset`, and the intrinsic size so the box is reserved before the image arrives.

export interface ResponsiveImage {
  src: string;
  srcset: string;
  webpSrcset: string;
  width: number;
  height: number;
}

interface Props {
  image: ResponsiveImage;
  alt: string;
  /** The width the image really fills at each breakpoint. */
  sizes: string;
  className?: string;
}

/** `<picture>` is `display: contents`, so `className` styles the image as if it stood alone. */
export function Picture({ image, alt, sizes, className }: Props) {
  return (
    <picture className="contents">
      <source type="image/webp" srcSet={image.webpSrcset} sizes={sizes} />
      <img
        src={image.src}
        srcSet={image.srcset}
        sizes={sizes}
        width={image.width}
        height={image.height}
        alt={alt}
        loading="lazy"
        decoding="async"
        className={className}
      />
    </picture>
  );
}
