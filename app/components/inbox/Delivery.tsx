import { channelNames, stateWords } from "~/owner/format";

interface Step {
  channel: string;
  state: string;
}

/** One line for a list row: each channel and where its notification stands. */
export function DeliverySummary({ notifications }: { notifications: Step[] }) {
  if (notifications.length === 0) return <span className="text-bone-400">No notifications</span>;
  return (
    <span>
      {notifications.map((step, index) => (
        <span key={step.channel}>
          {index > 0 ? ", " : ""}
          {channelNames[step.channel] ?? step.channel}{" "}
          <span
            className={
              step.state === "failed" ? "font-semibold text-red-300" : step.state === "sent" ? "text-ghoul-300" : ""
            }
          >
            {stateWords[step.state] ?? step.state}
          </span>
        </span>
      ))}
    </span>
  );
}
