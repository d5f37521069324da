import type { Config } from "~/config.server";
import { EnquiryRateLimiter } from "~/enquiry/rate-limit.server";
import { createLoginHashGate } from "~/owner/hash-gate.server";
import { LoginRateLimiter } from "~/owner/login-rate.server";
import type { SiteServices } from "~/site-services.server";
import { StoreUnavailableError } from "~/store/sql.server";
import type { Channel } from "~/store/records";
import type { InboxStore } from "~/store/store.types";

const built = new WeakMap<Config, SiteServices>();

/**
 * The services a loader or action gets from the server wing, for tests that call the app's code directly: the given
 * configuration, the inbox the test opened (or none: the database is down), and a rate limiter as configured. The
 * same configuration gives the same services, so a limiter counts across calls as the server's does.
 */
export function testServices(
  config: Config,
  { inbox, channels = [] }: { inbox?: () => InboxStore | undefined; channels?: readonly Channel[] } = {},
): SiteServices {
  const known = built.get(config);
  if (known) return known;
  const limiter = new EnquiryRateLimiter({
    sitePerMinute: config.rateLimitSitePerMinute,
    clientPerHour: config.rateLimitClientPerHour,
  });
  const logins = new LoginRateLimiter(config.rateLimitLoginPerMinute);
  const services: SiteServices = {
    config,
    inbox: () => {
      const store = inbox?.();
      if (!store) throw new StoreUnavailableError("no inbox database in this test");
      return store;
    },
    channels: () => channels,
    wakeOutbox: () => {},
    wakePhotoEncoder: () => {},
    admit: (client) => limiter.take(client),
    admitLogin: () => logins.take(),
    loginHashes: createLoginHashGate(),
    sitePublished: async () => {},
  };
  built.set(config, services);
  return services;
}
