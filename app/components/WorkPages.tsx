import { Link } from "@remix-run/react";
import { projectPage, workPage } from "~/wording";
import { ResponsivePhoto } from "~/components/ResponsivePhoto";
import type { WorkListView, WorkProject } from "~/site-content/public-work.server";
import { useRootData } from "~/site-content/root-data";

/**
 * The Work pages' pieces: the cards of /work and /work/{service} with their filter links, and one project's page.
 * Their data is made on the server (app/site-content/public-work.server.ts): words, photos and addresses only.
 */

type WorkCardView = WorkListView["cards"][number];
type ProjectProps = WorkProject;

/** An address as a link: in a preview, the same page of the preview (with a query string of its own or not). */
function usePreviewPath(): (path: string) => string {
  const preview = useRootData()?.preview ?? false;
  return (path) => (preview ? `${path}${path.includes("?") ? "&" : "?"}preview` : path);
}

/**
 * The cards' photo widths: three columns from lg in the 6xl column (px-6, gap-6), two from sm, one below. Only the
 * first card's photo (the page's largest paint on a phone) loads at once and first: on a slow connection the others
 * would share its bandwidth. The rest load as they near the screen (at once when already on it, as on a desktop).
 */
const cardSizes =
  "(min-width: 1152px) 352px, (min-width: 992px) calc((100vw - 96px) / 3), (min-width: 576px) calc((100vw - 72px) / 2), calc(100vw - 32px)";

function WorkCard({ card, index }: { card: WorkCardView; index: number }) {
  const path = usePreviewPath();
  return (
    <li className="group relative flex flex-col overflow-hidden rounded-xl border border-night-600 bg-night-800/70 shadow-[0_0_40px_-20px_rgb(242_140_40_/_0.4)] transition-colors focus-within:border-ember-500 hover:border-ember-500/70">
      <div className="relative">
        {card.cover ? (
          <ResponsivePhoto
            photo={card.cover}
            sizes={cardSizes}
            lazy={index > 0}
            priority={index === 0 ? "high" : "auto"}
            className="aspect-[4/3] transition-[filter] duration-300 group-hover:brightness-110"
          />
        ) : (
          <div className="flex aspect-[4/3] items-center justify-center bg-[radial-gradient(ellipse_at_center,_rgb(242_140_40_/_0.12),_transparent_70%)] text-sm text-bone-400">
            {workPage.noPhoto}
          </div>
        )}
        {card.featured ? (
          <span className="absolute left-3 top-3 rounded-full bg-night-950/85 px-3 py-1 text-xs font-semibold uppercase tracking-wider text-ember-300 ring-1 ring-ember-500/50">
            {workPage.featured}
          </span>
        ) : null}
      </div>
      <div className="flex flex-1 flex-col gap-1 p-5">
        {card.service ? (
          <p className="text-xs font-semibold uppercase tracking-wider text-ghoul-300">{card.service}</p>
        ) : null}
        <h2 className="font-display text-xl font-semibold text-bone-50">
          {/* The whole card is the link's target (its ::after covers it); the name is the title alone. */}
          <Link
            to={path(card.href)}
            prefetch="intent"
            className="after:absolute after:inset-0 after:content-[''] hover:text-ember-300 focus-visible:outline-none"
          >
            {card.title}
          </Link>
        </h2>
        {card.year !== null ? <p className="text-sm text-bone-300">{card.year}</p> : null}
      </div>
    </li>
  );
}

export function WorkList({ service, cards, filters }: WorkListView) {
  const path = usePreviewPath();
  return (
    <section className="mx-auto max-w-6xl px-4 py-12 sm:px-6 lg:py-16">
      {service ? (
        <>
          <p className="font-display text-lg text-ember-300">{workPage.heading}</p>
          <h1 className="mt-1 font-display text-4xl font-bold text-bone-50 sm:text-5xl">{service.name}</h1>
          <p className="mt-4 max-w-3xl text-lg text-bone-300">{workPage.serviceIntro(service.name)}</p>
        </>
      ) : (
        <>
          <h1 className="font-display text-4xl font-bold text-bone-50 sm:text-5xl">{workPage.heading}</h1>
          <p className="mt-4 max-w-3xl text-lg text-bone-300">{workPage.intro}</p>
        </>
      )}
      <nav aria-label={workPage.filtersLabel} className="mt-8">
        <ul className="flex flex-wrap gap-2" data-work-filters="">
          {filters.map((filter) => (
            <li key={filter.href}>
              <Link
                to={path(filter.href)}
                aria-current={filter.current ? "page" : undefined}
                prefetch="intent"
                className={
                  filter.current
                    ? "inline-block rounded-full border border-ember-500 bg-ember-500 px-4 py-1.5 text-sm font-semibold text-night-950"
                    : "inline-block rounded-full border border-night-600 bg-night-800/80 px-4 py-1.5 text-sm font-medium text-bone-100 hover:border-ember-500 hover:text-ember-300"
                }
              >
                {filter.label ?? workPage.all}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <ul className="mt-8 grid gap-6 sm:grid-cols-2 lg:grid-cols-3" data-work-cards="">
        {cards.map((card, index) => (
          <WorkCard key={card.href} card={card} index={index} />
        ))}
      </ul>
    </section>
  );
}

/** The cover beside the words from lg (3 of 5 columns of the 6xl column), full width below. */
const coverSizes =
  "(min-width: 1152px) 638px, (min-width: 992px) calc((100vw - 88px) * 0.6), (min-width: 576px) calc(100vw - 48px), calc(100vw - 32px)";
/** The other photos: two columns from sm. */
const gallerySizes = "(min-width: 1152px) 540px, (min-width: 576px) calc((100vw - 72px) / 2), calc(100vw - 32px)";

export function ProjectView({ project }: { project: ProjectProps }) {
  const path = usePreviewPath();
  const [cover, ...rest] = project.photos;
  const side = cover ? "lg:col-span-2" : "";
  const facts = [
    project.service
      ? {
          label: projectPage.serviceLabel,
          value: (
            <Link
              to={path(`/work/${project.service.slug}`)}
              className="text-ember-300 underline underline-offset-4 hover:text-ember-400"
            >
              {project.service.name}
            </Link>
          ),
        }
      : null,
    project.year !== null ? { label: projectPage.yearLabel, value: String(project.year) } : null,
    project.client ? { label: projectPage.clientLabel, value: project.client } : null,
  ].flatMap((fact) => (fact ? [fact] : []));
  return (
    <article className="mx-auto max-w-6xl px-4 py-10 sm:px-6 lg:py-14">
      <p>
        <Link
          to={path("/work")}
          className="text-sm font-medium text-bone-300 underline-offset-4 hover:text-ember-300 hover:underline"
        >
          <span aria-hidden="true">← </span>
          {projectPage.backLink}
        </Link>
      </p>
      {/* From lg, the words beside the cover (title and facts above the story); one column without a cover. */}
      <div className={`mt-4 grid gap-8 lg:items-start lg:gap-10 ${cover ? "lg:grid-cols-5" : "max-w-3xl"}`}>
        <div className={side}>
          <h1 className="font-display text-4xl font-bold leading-tight text-bone-50 sm:text-5xl">{project.title}</h1>
          {facts.length > 0 ? (
            <dl className="mt-6 grid gap-x-6 gap-y-3 text-bone-100 sm:grid-cols-[auto_1fr]" data-project-facts="">
              {facts.map((fact) => (
                <div key={fact.label} className="contents">
                  <dt className="text-sm font-semibold uppercase tracking-wider text-bone-400 sm:pt-0.5">
                    {fact.label}
                  </dt>
                  <dd className="-mt-2 sm:mt-0">{fact.value}</dd>
                </div>
              ))}
            </dl>
          ) : null}
        </div>
        {cover ? (
          <ResponsivePhoto
            photo={cover}
            sizes={coverSizes}
            priority="high"
            className="aspect-[4/3] rounded-xl border border-night-600 shadow-[0_0_60px_-15px_rgb(242_140_40_/_0.35)] lg:col-span-3 lg:row-span-2"
          />
        ) : null}
        <div className={side}>
          {project.paragraphs.length > 0 ? (
            <div className="space-y-5 text-lg leading-relaxed text-bone-100" data-project-story="">
              {project.paragraphs.map((paragraph, index) => (
                <p key={index}>{paragraph}</p>
              ))}
            </div>
          ) : null}
          <div className="mt-8 rounded-xl border border-ember-500/40 bg-night-800/70 p-5">
            <p className="text-lg text-bone-100">{projectPage.askPrompt}</p>
            <Link to={path(`/contact?about=${project.slug}`)} className="order-link mt-4" data-ask-link="">
              {projectPage.askLink}
            </Link>
          </div>
        </div>
      </div>

      {project.clips.length > 0 ? (
        <section aria-labelledby="project-clips" className="mt-14">
          <h2 id="project-clips" className="font-display text-3xl font-bold text-bone-50">
            {projectPage.clipsHeading}
          </h2>
          <div className="mt-6 grid gap-6 md:grid-cols-2">
            {project.clips.map((clip, index) => (
              <div
                key={clip.src}
                className="flex justify-center overflow-hidden rounded-xl border border-night-600 bg-night-950"
              >
                {/* Never plays by itself and loads nothing until asked: the poster frame is all a visitor downloads. */}
                {/* The owner uploads clips without a caption track (workshop footage; the story says what it shows). */}
                {/* eslint-disable-next-line jsx-a11y/media-has-caption */}
                <video
                  controls
                  playsInline
                  preload="none"
                  poster={clip.poster?.webp}
                  width={clip.width}
                  height={clip.height}
                  aria-label={projectPage.clipName(project.title, index + 1, project.clips.length)}
                  className="block h-auto max-h-[80vh] w-auto max-w-full"
                >
                  <source src={clip.src} type="video/mp4" />
                  {projectPage.clipFallback} <a href={clip.src}>{projectPage.clipDownload}</a>
                </video>
              </div>
            ))}
          </div>
        </section>
      ) : null}

      {rest.length > 0 ? (
        <section aria-labelledby="project-photos" className="mt-14">
          <h2 id="project-photos" className="font-display text-3xl font-bold text-bone-50">
            {projectPage.photosHeading}
          </h2>
          <ul className="mt-6 grid gap-6 sm:grid-cols-2">
            {rest.map((photo, index) => (
              <li key={`${photo.jpeg[0]?.src ?? ""}-${index}`}>
                <ResponsivePhoto
                  photo={photo}
                  sizes={gallerySizes}
                  lazy
                  className="aspect-[4/3] rounded-xl border border-night-600"
                />
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </article>
  );
}
