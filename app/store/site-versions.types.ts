/**
 * The site content's part of the store: the draft, the published versions and what each changed (app/store/site-versions.server.ts).
 */

/** One field a publish changed, in the owner's words: "Season year: 2025 → 2027". */
export interface SiteChange {
  label: string;
  before: string;
  after: string;
}

/** A published version of the site's content (JSON of app/site-content/schema.server.ts). */
export interface SiteVersion {
  number: number;
  publishedAt: Date;
  publishedBy: string;
  changes: SiteChange[];
  /** The version a restore brought back. */
  restoredFrom: number | null;
}

export interface SiteVersionWithContent extends SiteVersion {
  content: string;
}

/** The one shared draft: `revision` rises with every save and publish; content null until the first save. */
export interface SiteDraft {
  content: string | null;
  revision: number;
  savedAt: Date | null;
  savedBy: string | null;
}

/** A save or publish made from a form opened at an older revision: refused, with the draft as it now is. */
export interface StaleDraft {
  ok: false;
  draft: SiteDraft;
}

/** The site's content: the draft, the published versions and what each changed (app/store/site-versions.server.ts). */
export interface SiteStore {
  /** The newest published version's number (0: none yet): what every instance polls. */
  latestSiteVersion(): Promise<number>;
  /**
   * The newest version's number and how many photo renditions are ready, in one query: what every instance polls, so
   * a photo encoded after the publish goes public by itself (server/site-content-poll.ts).
   */
  siteState(): Promise<{ version: number; readyRenditions: number }>;
  /** The newest published version, or null when the site still shows the defaults. */
  publishedSite(): Promise<SiteVersionWithContent | null>;
  siteVersion(number: number): Promise<SiteVersionWithContent | null>;
  /** Newest first, without their content. */
  siteVersions(page: { limit: number; offset: number }): Promise<SiteVersion[]>;
  siteDraft(): Promise<SiteDraft>;
  /** Keeps `content` as the draft if the draft is still at `baseRevision`. */
  saveSiteDraft(
    content: string,
    baseRevision: number,
    actor: string,
    now?: Date,
  ): Promise<{ ok: true; revision: number } | StaleDraft>;
  /**
   * Keeps `content` as the draft and publishes it as the next version, with its activity entry, in one transaction, if
   * the draft is still at `baseRevision` (a restore names the version it brings back).
   */
  publishSite(
    content: string,
    baseRevision: number,
    actor: string,
    changes: readonly SiteChange[],
    options?: { restoredFrom?: number; now?: Date },
  ): Promise<{ ok: true; version: number; revision: number } | StaleDraft>;
}
