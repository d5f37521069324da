import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, Link, useLoaderData } from "@remix-run/react";
import { InboxShell, linkClass } from "~/components/inbox/InboxShell";
import { inboxHeaders, privateHeaders } from "~/owner/headers";
import { asOperator, type OperatorSession } from "~/owner/gate.server";
import { formatAmount } from "~/owner/money";
import { shownToOwner } from "~/owner/shown";
import { pipelineCopy, waitedFor } from "~/wording/pipeline";
import { inboxCopy } from "~/wording/inbox";

export const meta: MetaFunction = () => [
  { title: `${pipelineCopy.pipeline.title} | ${inboxCopy.title}` },
  { name: "robots", content: "noindex, nofollow" },
];
export const headers = inboxHeaders;

/** Each stage lists this many at most (the count says how many it holds); the oldest are the ones to act on. */
const perStage = 100;

export async function loader(args: LoaderFunctionArgs) {
  return asOperator(args, showPipeline);
}

/** The open enquiries by stage, with their counts and quoted totals; waiting ones first, oldest first. */
async function showPipeline({ context }: LoaderFunctionArgs, { operator, store }: OperatorSession) {
  const currency = context.site.content.business.currency;
  const now = Date.now();
  const stages = await store.pipeline(perStage);
  return data(
    shownToOwner({
      operator: operator.email,
      stages: stages.map((stage) => ({
        stage: stage.stage,
        name: pipelineCopy.stages[stage.stage],
        count: stage.count,
        quotedTotal: stage.quotedTotal > 0 ? formatAmount(stage.quotedTotal, currency) : null,
        items: stage.items.map((item) => ({
          id: item.id,
          name: item.name,
          waited: item.waiting ? waitedFor(now - item.customerAt.getTime()) : null,
          quote: item.quoteAmount === null ? null : formatAmount(item.quoteAmount, currency),
          neededBy: item.neededBy,
          service: item.service,
        })),
      })),
    }),
    { headers: privateHeaders },
  );
}

export default function InboxPipeline() {
  const { operator, stages } = useLoaderData<typeof loader>();
  const words = pipelineCopy.pipeline;
  return (
    <InboxShell operator={operator}>
      <h1 className="font-display text-3xl font-bold text-bone-50">{words.title}</h1>
      <p className="mt-1 text-bone-300">{words.intro}</p>
      <div className="mt-6 grid gap-4 md:grid-cols-2 xl:grid-cols-3">
        {stages.map((stage) => (
          <section
            key={stage.stage}
            aria-labelledby={`stage-${stage.stage}`}
            className="rounded-xl border border-night-600 bg-night-800/70 p-4"
          >
            <h2 id={`stage-${stage.stage}`} className="text-xl font-semibold text-bone-50">
              {stage.name}
            </h2>
            <p className="text-sm text-bone-300" data-stage-summary={stage.stage}>
              {words.count(stage.count)}
              {stage.quotedTotal ? ` · ${words.quotedTotal(stage.quotedTotal)}` : null}
            </p>
            {stage.items.length === 0 ? (
              <p className="mt-2 text-sm text-bone-300">{words.empty}</p>
            ) : (
              <ol className="mt-2 divide-y divide-night-600">
                {stage.items.map((item) => (
                  <li key={item.id} className="py-2">
                    <Link to={`/inbox/${item.id}`} className={linkClass}>
                      {item.name}
                    </Link>
                    {item.waited ? (
                      <span className="ml-2 text-sm font-semibold text-ember-300">
                        {words.waitingSince(item.waited)}
                      </span>
                    ) : null}
                    <p className="text-sm text-bone-300">
                      {[item.service, item.quote, item.neededBy ? words.neededBy(item.neededBy) : null]
                        .filter(Boolean)
                        .join(" · ")}
                    </p>
                  </li>
                ))}
              </ol>
            )}
            {stage.count > stage.items.length ? (
              <p className="mt-2 text-sm text-bone-300">{words.more(stage.count - stage.items.length)}</p>
            ) : null}
          </section>
        ))}
      </div>
    </InboxShell>
  );
}
