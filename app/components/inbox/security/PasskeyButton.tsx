import { useState } from "react";
import { quietButtonClass } from "~/components/inbox/InboxShell";
import { Notice } from "~/components/inbox/form/Notice";
import { securityCopy } from "~/wording/security";
import { problemWords, proveWithPasskey, usePasskeySupport } from "~/owner/passkey-client";

/**
 * "Log in with a passkey" (the login page) or "Use a passkey instead" (the code page). Passkeys need JavaScript:
 * without it (or before the page has hydrated) a line says so and the password and code path is the way in.
 */
export function PasskeyButton({ purpose, next }: { purpose: "login" | "verify"; next: string }) {
  const support = usePasskeySupport();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const copy = securityCopy.passkeys;
  const login = purpose === "login";
  const label = login ? copy.login : securityCopy.verify.passkey;

  if (support !== "ready") {
    const why =
      support === "unsupported"
        ? login
          ? copy.unsupportedLogin
          : copy.unsupportedVerify
        : login
          ? copy.loginNeedsJs
          : securityCopy.verify.passkeyNeedsJs;
    return <p className="text-sm text-bone-300">{why}</p>;
  }

  async function go() {
    setBusy(true);
    setProblem(null);
    try {
      window.location.assign(await proveWithPasskey(purpose, next));
    } catch (error) {
      setProblem(problemWords(error));
      setBusy(false);
    }
  }

  return (
    <div>
      <Notice tone="error">{problem}</Notice>
      <button type="button" className={quietButtonClass} onClick={() => void go()} disabled={busy} aria-busy={busy}>
        {busy ? copy.adding : label}
      </button>
    </div>
  );
}
