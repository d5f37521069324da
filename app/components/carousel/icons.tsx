/** Small stroke icons for the carousel buttons; the buttons carry the accessible names. */
const iconProps = {
  "aria-hidden": true,
  focusable: false,
  viewBox: "0 0 24 24",
  fill: "none",
  stroke: "currentColor",
  strokeWidth: 2.25,
  strokeLinecap: "round",
  strokeLinejoin: "round",
  className: "h-5 w-5",
} as const;

export function PauseIcon() {
  return (
    <svg {...iconProps}>
      <path d="M9 6v12M15 6v12" />
    </svg>
  );
}

export function PlayIcon() {
  return (
    <svg {...iconProps}>
      <path d="M8 5.5v13l10.5-6.5z" fill="currentColor" />
    </svg>
  );
}

export function PreviousIcon() {
  return (
    <svg {...iconProps}>
      <path d="M15 5l-7 7 7 7" />
    </svg>
  );
}

export function NextIcon() {
  return (
    <svg {...iconProps}>
      <path d="M9 5l7 7-7 7" />
    </svg>
  );
}
