import { carousel } from "~/content/site";

/** Server-rendered slides, first one showing. Rotation, controls and gestures are added in the carousel issue. */
export function HeroCarousel() {
  const total = carousel.slides.length;
  return (
    <section
      aria-roledescription="carousel"
      aria-label={carousel.label}
      className="overflow-hidden rounded-xl border border-night-600 bg-night-950 shadow-[0_0_60px_-15px_rgb(242_140_40_/_0.35)]"
    >
      <div className="flex">
        {carousel.slides.map((slide, index) => (
          <div
            key={slide.src}
            role="group"
            aria-roledescription="slide"
            aria-label={`${index + 1} of ${total}`}
            aria-hidden={index === 0 ? undefined : true}
            className="min-w-0 flex-[0_0_100%]"
          >
            <figure>
              <img
                src={slide.src}
                alt={slide.alt}
                width={carousel.imageWidth}
                height={carousel.imageHeight}
                loading={index === 0 ? "eager" : "lazy"}
                fetchPriority={index === 0 ? "high" : "low"}
                decoding={index === 0 ? "sync" : "async"}
                className="aspect-video h-auto w-full object-cover"
              />
              <figcaption className="px-4 py-3 text-center font-display text-lg capitalize text-bone-100">{slide.caption}</figcaption>
            </figure>
          </div>
        ))}
      </div>
    </section>
  );
}
