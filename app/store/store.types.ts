import type { BuildPageStore } from "~/store/build-pages.types";
import type { DeletionStore } from "~/store/deletion.types";
import type { DigestStore } from "~/store/digests.types";
import type { EnquiryStore } from "~/store/enquiries.types";
import type { FactorStore } from "~/store/factors.types";
import type { FiguresStore } from "~/store/figures.types";
import type { OwnerAlertStore } from "~/store/owner-alerts.types";
import type { NotificationStore } from "~/store/notifications.types";
import type { OutgoingMailStore } from "~/store/outgoing-mail.types";
import type { OwnerStore } from "~/store/owner.types";
import type { PhotoStore } from "~/store/photos.types";
import type { PipelineStore } from "~/store/pipeline.types";
import type { ReminderStore } from "~/store/reminders.types";
import type { SiteStore } from "~/store/site-versions.types";
import type { SpamStore } from "~/store/spam.types";
import type { V1ImportStore } from "~/store/v1.types";
import type { VideoStore } from "~/store/videos.types";
import type { WaitlistOwnerStore, WaitlistStore } from "~/store/waitlist.types";

/**
 * The whole store, as the server opens it (app/store/store.server.ts): every part's contract on one database, and where
 * that database is. A caller asks for the parts it uses (`EnquiryStore & SpamStore`), not for this.
 */

/** Where the database is: a SQLite file or a PostgreSQL server (DATABASE_URL, parsed by the configuration). */
export type DatabaseLocation = { kind: "sqlite"; path: string } | { kind: "postgres"; url: string };

/** The database connection under every part: is it there, and let it go. */
export interface StoreConnection {
  /** Resolves when the database answers. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** The whole store (app/store/store.server.ts puts it together). */
export interface InboxStore
  extends
    StoreConnection,
    EnquiryStore,
    SpamStore,
    NotificationStore,
    DigestStore,
    DeletionStore,
    V1ImportStore,
    OwnerStore,
    FactorStore,
    OwnerAlertStore,
    SiteStore,
    PhotoStore,
    VideoStore,
    PipelineStore,
    OutgoingMailStore,
    ReminderStore,
    FiguresStore,
    BuildPageStore,
    WaitlistOwnerStore,
    WaitlistStore {}
