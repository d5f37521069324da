import { createEnquiryRateLimiter } from "~/enquiry/rate-limit.server";
import type { RateLimitStore } from "~/http/rate-limit.server";
import { createGuessLimiter } from "~/http/guess-limit.server";
import { createLoginHashGate } from "~/owner/hash-gate.server";
import { LoginRateLimiter } from "~/owner/login-rate.server";
import type { SiteServices } from "~/site-services.server";
import type { InboxStore } from "~/store/store.types";
import { backupStatus, startBackups, stopBackups } from "./backups";
import { getConfig } from "./environment";
import { startCustomerMail, stopCustomerMail, wakeCustomerMail } from "./customer-mail-loop";
import { startListMail, stopListMail, wakeListMail } from "./list-mail-loop";
import { currentInbox, inboxChannels, postgresPool, startInbox, stopInbox } from "./database";
import { startOwnerAlerts, stopOwnerAlerts, wakeOwnerAlerts } from "./owner-alerts-loop";
import { siteMetrics } from "./metrics";
import { configuredChannels, startOutbox, stopOutbox, wakeOutbox } from "./outbox-loop";
import { limitSharp, startPhotoEncoder, stopPhotoEncoder, wakePhotoEncoder } from "./photo-encoder-loop";
import { refreshSite, startSiteContent, stopSiteContent } from "./site-content-poll";
import { startSpamDigest, stopSpamDigest } from "./spam-digest-loop";
import { startReminders, stopReminders, wakeReminders } from "./reminders-loop";
import { startVideoEncoder, stopVideoEncoder, wakeVideoEncoder } from "./video-encoder-loop";
import { log } from "~/log.server";

/**
 * What the server process runs besides answering requests, started before it listens and stopped after the last
 * request has been answered (see main.ts), and what it hands the app through the load context. Starting checks the
 * environment: a bad value stops the start with a message naming the variable.
 */

// How long the start waits for the inbox database before serving pages anyway (it keeps retrying in the background).
const inboxStartWaitMs = 5_000;

/** The process's services, as loaders and actions see them (`context.services`). */
export function createServices(): SiteServices {
  const config = getConfig();
  // The limits count in the inbox's PostgreSQL database (shared by every instance), or in memory.
  const pool = postgresPool(config);
  const store: RateLimitStore = pool ? { kind: "postgres", pool } : { kind: "memory" };
  const limiter = createEnquiryRateLimiter(config, store);
  const logins = new LoginRateLimiter(config.rateLimitLoginPerMinute, store);
  return {
    config,
    // Counted only where they are served (METRICS_PORT).
    metrics: config.metrics ? siteMetrics : undefined,
    inbox: currentInbox,
    channels: inboxChannels,
    wakeOutbox,
    wakeOwnerAlerts,
    wakeCustomerMail,
    wakeListMail,
    wakeReminders,
    wakePhotoEncoder,
    wakeVideoEncoder,
    admit: (clientAddress) => limiter.take(clientAddress),
    admitLogin: () => logins.take(),
    buildGuesses: createGuessLimiter(store),
    loginHashes: createLoginHashGate(),
    sitePublished: refreshSite,
    backupStatus: () => backupStatus(),
  };
}

export async function startServices(): Promise<void> {
  const config = getConfig();
  if (!config.publicUrlSet) {
    log.warn(
      `[config] PUBLIC_URL is not set: sitemap.xml, robots.txt and canonical links use ${config.publicUrl}. ` +
        "Set it to the site's public origin, e.g. https://haunt.example.",
    );
  }
  limitSharp();
  if (config.apiHost) {
    startSiteContent(config); // enquiries go to the API: no embedded inbox, the default content
    return;
  }
  let timer: NodeJS.Timeout | undefined;
  const waited = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, inboxStartWaitMs);
  });
  // Each enquiry gets a pending notification per configured channel; the outbox sends them once the store is open.
  const notifications = configuredChannels(config.notify);
  const onOpen = (store: InboxStore) => {
    startSiteContent(config, store);
    startOutbox(store, config.notify);
    startSpamDigest(store, config);
    startOwnerAlerts(store, config);
    startCustomerMail(store, config);
    startListMail(store, config);
    startReminders(store, config);
    startPhotoEncoder(store, { leaseMs: config.photoLeaseMs });
    startVideoEncoder(store, { leaseMs: config.photoLeaseMs });
    startBackups(config);
  };
  await Promise.race([startInbox(config, notifications, onOpen), waited]);
  clearTimeout(timer);
}

/**
 * At the shutdown signal, beside the HTTP drain: the sender stops claiming and finishes or abandons its sends while
 * the requests in flight finish (what they store stays pending in the database for the next sender); the photo
 * encoder lets its photo go, or leaves its claim to run out.
 */
export async function stopBackground(): Promise<void> {
  await Promise.all([
    stopSiteContent(),
    stopOutbox(),
    stopSpamDigest(),
    stopOwnerAlerts(),
    stopCustomerMail(),
    stopListMail(),
    stopReminders(),
    stopPhotoEncoder(),
    stopVideoEncoder(),
    stopBackups(),
  ]);
}

/** After the last answer (and after stopBackground): its sends in flight have settled their claims by then. */
export async function stopServices(): Promise<void> {
  await stopInbox();
}
