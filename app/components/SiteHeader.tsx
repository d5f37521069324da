import { Link, NavLink } from "@remix-run/react";
import { useRef, type KeyboardEvent } from "react";
import { brand, header, navigationFor } from "~/wording";
import { businessNameOf, useRootData, useSitePath } from "~/site-content/root-data";

const MOBILE_NAV_ID = "mobile-nav";

function NavLinks({ onNavigate, vertical }: { onNavigate?: () => void; vertical?: boolean }) {
  const sitePath = useSitePath();
  // "Our work" from the first published project on: the server renders it, so the bar never changes after paint.
  const items = navigationFor(useRootData()?.hasWork ?? false);
  return (
    <ul className={vertical ? "flex flex-col gap-1 px-4 py-3" : "flex items-center gap-2"}>
      {items.map((item) => (
        <li key={item.to}>
          {/* NavLink marks the current page with aria-current="page". */}
          {/* The current page's link (aria-current) is marked by .nav-link's own rule in app/tailwind.css. */}
          <NavLink to={sitePath(item.to)} end className="nav-link" onClick={onNavigate} prefetch="intent">
            {item.label}
          </NavLink>
        </li>
      ))}
    </ul>
  );
}

function MenuIcon() {
  return (
    <svg
      aria-hidden="true"
      className="shrink-0"
      width="20"
      height="20"
      viewBox="0 0 20 20"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
    >
      <path d="M3 5h14M3 10h14M3 15h14" strokeLinecap="round" />
    </svg>
  );
}

// The toggle's box has a fixed size and its icon a fixed place (left-aligned, never shrunk), so nothing moves while
// the label's text settles on first paint (measured under CPU load: the box took its content's size, a layout shift).
const toggleBoxClass = "h-10 w-[6.5rem] lg:hidden";

/**
 * Below the lg breakpoint the links collapse behind a native <details>/<summary> disclosure, with or without
 * JavaScript: it opens and closes without a script, browsers expose its expanded state, and because the markup is
 * the same before and after hydration, a menu opened while the scripts are still loading (they start only after the
 * page has loaded) stays open and keeps focus. Scripts add what a disclosure lacks for in-page navigation: it closes
 * when a link is chosen (a client-side navigation keeps the header) and on Escape.
 */
function MobileMenu() {
  const menu = useRef<HTMLDetailsElement>(null);
  const close = () => menu.current?.removeAttribute("open");
  const closeOnEscape = (event: KeyboardEvent) => {
    if (event.key !== "Escape" || !menu.current?.open) return;
    close();
    menu.current.querySelector("summary")?.focus();
  };

  return (
    // Escape reaches the disclosure by bubbling, from its summary or from a link inside it.
    // eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions
    <details ref={menu} className={toggleBoxClass} onKeyDown={closeOnEscape}>
      <summary className="menu-toggle" data-nav-toggle="">
        <MenuIcon />
        {header.menu}
      </summary>
      <nav id={MOBILE_NAV_ID} aria-label={header.navigationLabel} className="menu-panel">
        <NavLinks vertical onNavigate={close} />
      </nav>
    </details>
  );
}

export function SiteHeader() {
  const sitePath = useSitePath();
  const businessName = businessNameOf(useRootData());
  return (
    <header className="site-header" data-site-header="">
      {/* A fixed-height bar: nothing in it can push the page down as text settles. */}
      <div className="site-header-bar">
        <Link to={sitePath("/")} className="flex items-center gap-3 rounded-md focus-visible:outline-offset-4">
          <img src={brand.logo.src} alt={brand.logo.alt} width={40} height={40} className="h-10 w-10" />
          <span className="whitespace-nowrap font-display text-base font-semibold tracking-wide text-bone-50 sm:text-xl">
            {businessName}
          </span>
        </Link>
        <nav aria-label={header.navigationLabel} className="hidden lg:block">
          <NavLinks />
        </nav>
        <MobileMenu />
      </div>
    </header>
  );
}
