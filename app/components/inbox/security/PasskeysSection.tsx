import { Link, useActionData, useNavigation, useSearchParams } from "@remix-run/react";
import { useState, type FormEvent } from "react";
import { buttonClass, dangerButtonClass, linkClass } from "~/components/inbox/InboxShell";
import { ButtonForm } from "~/components/inbox/form/ButtonForm";
import { Field } from "~/components/inbox/form/Field";
import { Notice } from "~/components/inbox/form/Notice";
import { SecuritySection } from "~/components/inbox/security/SecuritySection";
import { securityCopy } from "~/wording/security";
import { addPasskey, problemWords, useBrowserName, usePasskeySupport } from "~/owner/passkey-client";

export interface PasskeyRow {
  id: string;
  name: string;
  added: string;
  addedIso: string;
  lastUsed: string | null;
  lastUsedIso: string | null;
}

const copy = securityCopy.passkeys;
const nameMax = 60;

/** What the page came back with after a post/redirect/get (?done=...): fixed words, never the URL's text. */
function doneNotice(done: string | null) {
  if (done === "passkey-added") return <Notice>{copy.done.added}</Notice>;
  if (done === "passkey-removed") return <Notice>{copy.done.removed}</Notice>;
  if (done !== "passkey-added-setup") return null;
  return (
    <Notice>
      {`${copy.done.addedSetup} `}
      <Link to="/inbox" className={linkClass}>
        {copy.done.toInbox}
      </Link>
      .
    </Notice>
  );
}

/**
 * The operator's passkeys: the list (name, added, last used) with Remove for each (a plain form: works without
 * JavaScript), and "Add a passkey" with its name (needs JavaScript: without it the section says so and points to the
 * one-time codes).
 */
export function PasskeysSection({ passkeys }: { passkeys: PasskeyRow[] }) {
  const [searchParams] = useSearchParams();
  const refusal = useActionData<{ passkeyError?: string }>()?.passkeyError;
  const removing = useNavigation().state !== "idle";
  return (
    <SecuritySection id="security-passkeys" title={securityCopy.page.passkeys} intro={copy.intro}>
      <div className="mt-4 max-w-2xl">
        {doneNotice(searchParams.get("done"))}
        <Notice tone="error">{refusal}</Notice>
        {passkeys.length === 0 ? (
          <p className="text-bone-300">{copy.none}</p>
        ) : (
          <ul className="space-y-3">
            {passkeys.map((passkey) => (
              <li
                key={passkey.id}
                className="flex flex-wrap items-center justify-between gap-3 rounded-md border border-night-600 bg-night-800 px-4 py-3"
              >
                <div className="min-w-0">
                  <p className="font-medium text-bone-50">{passkey.name}</p>
                  <p className="mt-1 text-sm text-bone-300">
                    {`${copy.added} `}
                    <time dateTime={passkey.addedIso}>{passkey.added}</time>
                    {` · ${copy.lastUsed} `}
                    {passkey.lastUsed && passkey.lastUsedIso ? (
                      <time dateTime={passkey.lastUsedIso}>{passkey.lastUsed}</time>
                    ) : (
                      copy.neverUsed
                    )}
                  </p>
                </div>
                <ButtonForm
                  fields={{ intent: "remove-passkey", passkey: passkey.id }}
                  buttonClassName={dangerButtonClass}
                  label={copy.removeLabel(passkey.name)}
                  disabled={removing}
                >
                  {copy.remove}
                </ButtonForm>
              </li>
            ))}
          </ul>
        )}
        <AddPasskey />
      </div>
    </SecuritySection>
  );
}

function AddPasskey() {
  const support = usePasskeySupport();
  const browser = useBrowserName();
  // Until the operator types, a name to start from: "Passkey on Chrome on Android".
  const [typed, setName] = useState<string | null>(null);
  const name = typed ?? (browser ? copy.defaultName(browser).slice(0, nameMax) : "");
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  async function add(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!name.trim()) {
      setProblem(copy.nameMissing);
      return;
    }
    setBusy(true);
    setProblem(null);
    try {
      window.location.assign(await addPasskey(name.trim()));
    } catch (error) {
      setProblem(problemWords(error));
      setBusy(false);
    }
  }

  const ready = support === "ready";
  return (
    <form onSubmit={(event) => void add(event)} className="mt-6 space-y-3 rounded-md border border-night-600 p-4">
      <Notice tone="error" id="passkey-problem" className="">
        {problem}
      </Notice>
      {/* The problem may be the browser's or the server's, not the name's: read with it, not marked invalid. */}
      <Field
        id="passkey-name"
        label={copy.nameLabel}
        hint={copy.nameHint}
        hintAfter
        alertId={problem ? "passkey-problem" : undefined}
        name="name"
        type="text"
        required
        maxLength={nameMax}
        value={name}
        onChange={(event) => setName(event.target.value)}
        disabled={!ready}
      />
      {ready ? null : <p className="text-bone-100">{support === "unsupported" ? copy.unsupported : copy.needsJs}</p>}
      <button type="submit" className={buttonClass} disabled={!ready || busy} aria-busy={busy}>
        {busy ? copy.adding : copy.add}
      </button>
    </form>
  );
}
