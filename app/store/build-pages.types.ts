import type { Channel } from "~/store/records";
import type { Stage } from "~/store/pipeline.types";

/**
 * The customer's build page's part of the store (app/store/build-pages.server.ts): the private address an enquiry's
 * build is shown at, the owner's progress updates, and the customer's answers from the page.
 */

/** The build page as the owner sees it on the enquiry page. */
export interface BuildPageLink {
  /** The token in clear (opened from its sealed copy), for the address /build/{token}. */
  token: string;
  createdAt: Date;
  createdBy: string;
  /** Set when revoked: the address answers 404 from then on. */
  revokedAt: Date | null;
  /** When the address stops working on its own (90 days after Delivered); null while not delivered. */
  endsAt: Date | null;
}

/** One photo of an update: the upload and the key of its rendition (encoded in the background). */
export interface BuildPhoto {
  upload: string;
  key: string;
}

export interface BuildUpdate {
  id: string;
  enquiryId: string;
  at: Date;
  author: string;
  body: string;
  photos: BuildPhoto[];
  /** The owner asked for the customer to be e-mailed about it. */
  emailed: boolean;
}

/** What the public page is given for a token that works: only what the customer may see. */
export interface SharedBuild {
  enquiryId: string;
  /** The customer's name, for the owner's announcement of an answer (never shown to others). */
  customerName: string;
  /** The project asked about, or the service; null: none known. */
  title: string | null;
  stage: Stage;
  /** The stages reached, oldest first: when each was entered (New: when the enquiry arrived; null: not known). */
  stages: { stage: Stage; at: Date | null }[];
}

/** Why sharing was refused. */
export type ShareRefusal = "not-found" | "stage";

export interface BuildPageStore {
  /**
   * Shares the build page (a new random token, its hash and sealed copy kept) unless one is active; from Deposit paid
   * on only. A timeline line and an activity row with it.
   */
  shareBuildPage(
    enquiryId: string,
    actor: string,
    now?: Date,
  ): Promise<{ ok: true; link: BuildPageLink; created: boolean } | { ok: false; refusal: ShareRefusal }>;
  /** The enquiry's build page (active or revoked), its token opened; null when never shared. */
  buildPageLink(enquiryId: string, now?: Date): Promise<BuildPageLink | null>;
  /** Revokes the active address; false when there was none. */
  revokeBuildPage(enquiryId: string, actor: string, now?: Date): Promise<boolean>;
  /**
   * The build shown at a token, or null for an unknown, revoked or expired one: always one hash and one indexed
   * lookup, whatever the token.
   */
  sharedBuild(token: string, now?: Date): Promise<SharedBuild | null>;
  /**
   * Stores an update (text, 0-6 photos already uploaded, their renditions asked for); a timeline line with it. With
   * `mail` ("E-mail the customer"), the customer's e-mail is queued in the same transaction (outgoing_mail, kind
   * `build-update`, threaded after the enquiry's earlier mail).
   */
  postBuildUpdate(
    enquiryId: string,
    update: {
      author: string;
      body: string;
      photos: readonly BuildPhoto[];
      mail: { subject: string; body: string; fromAddress: string } | null;
    },
    now?: Date,
  ): Promise<BuildUpdate | null>;
  /** Newest first. */
  buildUpdates(enquiryId: string): Promise<BuildUpdate[]>;
  /**
   * The customer's answer from the page: a timeline line (kind `customer`), `customer_at` set (the enquiry is waiting),
   * an activity row, and the owner's announcement queued per channel; false when the enquiry is gone.
   */
  answerFromBuildPage(
    enquiryId: string,
    text: string,
    channels: readonly Channel[],
    now?: Date,
    /** The spam filter's reasons when it judged the answer spam: kept in the timeline, marked, announced to nobody. */
    spam?: readonly string[],
  ): Promise<boolean>;
  /** An encoded file of one of the enquiry's update photos, or null (any other file, even one that exists). */
  buildPhotoFile(
    enquiryId: string,
    name: string,
  ): Promise<{ name: string; contentType: string; bytes: Uint8Array } | null>;
}
