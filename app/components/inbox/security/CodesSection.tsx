import { securityCopy } from "~/content/security";

export interface CodesState {
  confirmed: boolean;
  recoveryLeft: number;
}

/** One-time codes from an authenticator app, and the recovery codes. */
export function CodesSection({ codes }: { codes: CodesState }) {
  return (
    <section aria-labelledby="security-codes" className="mt-10">
      <h2 id="security-codes" className="font-display text-2xl font-bold text-bone-50">
        {securityCopy.page.codes}
      </h2>
      <p className="mt-2 text-bone-300">{codes.confirmed ? "On" : "Off"}</p>
    </section>
  );
}
