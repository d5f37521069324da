import { inboxCopy } from "~/wording/inbox";
import { channelName, stateName, type DeliveryState } from "~/owner/delivery";

/** One line for a list row: each channel and where its notification stands (app/owner/delivery.ts), states coloured. */
export function DeliverySummary({ notifications }: { notifications: DeliveryState[] }) {
  if (notifications.length === 0) return <span className="text-bone-400">{inboxCopy.delivery.none}</span>;
  return (
    <span>
      {notifications.map((step, index) => (
        <span key={step.channel}>
          {index > 0 ? ", " : ""}
          {channelName(step.channel)}{" "}
          <span
            className={
              step.state === "failed" ? "font-semibold text-red-300" : step.state === "sent" ? "text-ghoul-300" : ""
            }
          >
            {stateName(step.state)}
          </span>
        </span>
      ))}
    </span>
  );
}
