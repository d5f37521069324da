import { Link } from "@remix-run/react";
import { footer, privacyLinks, workLink } from "~/wording";
import type { PublicSite } from "~/site-content/public-site";
import { useSitePath } from "~/site-content/root-data";

/**
 * The business's name and the details the owner chose to publish (e-mail, phone, town or region, social links), the
 * copyright line, the Work pages' link once there is work to show, and the privacy link. The year comes from the root
 * loader, so the server render and the hydrated page always agree.
 */
export function SiteFooter({
  year,
  business,
  hasWork = false,
}: {
  year: number;
  business: PublicSite["business"];
  hasWork?: boolean;
}) {
  const sitePath = useSitePath();
  const details = [business.region, business.phone].filter(Boolean);
  return (
    <footer className="border-t border-night-600/80 bg-night-950">
      <div className="site-footer-row">
        <div className="space-y-1" data-business="">
          <p className="font-display text-base text-bone-100">{business.name}</p>
          {details.length > 0 ? <p>{details.join(" · ")}</p> : null}
          {business.email ? (
            <p>
              <a href={`mailto:${business.email}`} className="site-footer-link">
                {business.email}
              </a>
            </p>
          ) : null}
          {business.links.length > 0 ? (
            <ul className="flex flex-wrap gap-x-4 gap-y-1">
              {business.links.map((link) => (
                <li key={link}>
                  <a href={link} rel="me noopener" className="site-footer-link">
                    {new URL(link).hostname.replace(/^www\./, "")}
                  </a>
                </li>
              ))}
            </ul>
          ) : null}
        </div>
        <div className="flex flex-col gap-2 sm:flex-row sm:items-center sm:gap-6">
          <p data-copyright="">
            &copy; {year} {business.name}. {footer.rights}
          </p>
          {hasWork ? (
            <Link to={sitePath(workLink.to)} className="site-footer-link hover:text-ember-300">
              {workLink.label}
            </Link>
          ) : null}
          <Link to={sitePath("/privacy")} className="site-footer-link hover:text-ember-300">
            {privacyLinks.footer}
          </Link>
        </div>
      </div>
    </footer>
  );
}
