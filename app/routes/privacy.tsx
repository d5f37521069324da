import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import type { Config } from "~/config.server";
import { privacyPage } from "~/wording";
import { waitlistConfirmDays } from "~/wording/waitlist";
import { metaFromLoader, useSitePath } from "~/site-content/root-data";
import { pageData, pageHeadFor } from "~/site-content/pages.server";

export const meta: MetaFunction = metaFromLoader;

/**
 * The numbers and channels the page states, from the configuration (RETENTION_DAYS, SPAM_RETENTION_DAYS, NOTIFY_*,
 * and DATABASE_URL's kind: what an erase does to the deleted bytes differs, docs/spam-and-retention.md).
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { retention, notify, database, backup } = context.services.config;
  const { meta, site, preview } = await pageHeadFor("privacy", request, context);
  return pageData(
    {
      meta,
      businessName: site.business.name,
      overwrittenAtOnce: database?.kind !== "postgres",
      backupDays: backupDays(backup, database?.kind === "sqlite"),
      retentionDays: retention?.retentionDays ?? 365,
      spamRetentionDays: retention?.spamRetentionDays ?? 30,
      channels: { email: Boolean(notify?.email), chat: Boolean(notify?.webhookUrl) },
    },
    preview,
  );
}

/**
 * How long an erased enquiry can remain in the site's own backups: the daily keep window and a day
 * (docs/configuration.md#backups), or with none, the hourly ones' span rounded up to whole days. Null on PostgreSQL: its backups are the operator's.
 */
function backupDays(backup: Config["backup"], sqlite: boolean): number | null {
  if (!sqlite || !backup) return null;
  // The first backup of the erase's day stays BACKUP_KEEP_DAILY days, and goes at the first backup after that.
  if (backup.keepDaily > 0) return backup.keepDaily + 1;
  return Math.max(1, Math.ceil((backup.keepHourly * (backup.intervalMs ?? 3_600_000)) / 86_400_000));
}

function Part({ heading, children }: { heading: string; children: React.ReactNode }) {
  return (
    <section className="mt-10">
      <h2 className="font-display text-2xl font-bold text-bone-50">{heading}</h2>
      <div className="mt-3 space-y-4 text-lg leading-relaxed text-bone-100">{children}</div>
    </section>
  );
}

export default function Privacy() {
  const { businessName, retentionDays, spamRetentionDays, channels, overwrittenAtOnce, backupDays } =
    useLoaderData<typeof loader>();
  const sitePath = useSitePath();
  return (
    <article className="mx-auto max-w-3xl px-4 py-12 sm:px-6 lg:py-16">
      <h1 className="font-display text-4xl font-bold text-bone-50 sm:text-5xl">{privacyPage.heading}</h1>
      <p className="mt-6 text-lg text-bone-300">{privacyPage.intro}</p>
      <Part heading={privacyPage.storedHeading}>
        <p>{privacyPage.stored}</p>
      </Part>
      <Part heading={privacyPage.whyHeading}>
        <p>{privacyPage.why}</p>
      </Part>
      <Part heading={privacyPage.listHeading}>
        <p data-waitlist-privacy="">{privacyPage.list(waitlistConfirmDays)}</p>
      </Part>
      <Part heading={privacyPage.howLongHeading}>
        <p data-retention={retentionDays}>{privacyPage.howLong(retentionDays)}</p>
        <p data-spam-retention={spamRetentionDays}>{privacyPage.spamHowLong(spamRetentionDays)}</p>
      </Part>
      <Part heading={privacyPage.whoHeading}>
        <p>{privacyPage.who(businessName, channels)}</p>
      </Part>
      <Part heading={privacyPage.erasureHeading}>
        <p data-backup-days={backupDays ?? undefined}>{privacyPage.erasure(overwrittenAtOnce, backupDays)}</p>
        <p>
          <Link
            to={sitePath("/contact")}
            className="font-semibold text-ember-300 underline underline-offset-4 hover:text-ember-400"
          >
            {privacyPage.contactLink}
          </Link>
        </p>
      </Part>
    </article>
  );
}
