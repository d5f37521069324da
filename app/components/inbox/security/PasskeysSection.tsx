import { Form, Link, useActionData, useNavigation, useSearchParams } from "@remix-run/react";
import { useState, type FormEvent } from "react";
import { buttonClass, dangerButtonClass, inputClass, linkClass, Notice } from "~/components/inbox/InboxShell";
import { securityCopy } from "~/content/security";
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
  if (done === "passkey-added") return <Notice text={copy.done.added} />;
  if (done === "passkey-removed") return <Notice text={copy.done.removed} />;
  if (done !== "passkey-added-setup") return null;
  return (
    <p role="status" className="mb-4 rounded-md border border-ghoul-400/60 bg-night-800 px-4 py-3 text-bone-50">
      {`${copy.done.addedSetup} `}
      <Link to="/inbox" className={linkClass}>
        {copy.done.toInbox}
      </Link>
      .
    </p>
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
    <section aria-labelledby="security-passkeys" className="mt-10">
      <h2 id="security-passkeys" className="font-display text-2xl font-bold text-bone-50">
        {securityCopy.page.passkeys}
      </h2>
      <p className="mt-2 max-w-prose text-bone-300">{copy.intro}</p>
      <div className="mt-4 max-w-2xl">
        {doneNotice(searchParams.get("done"))}
        {refusal ? (
          <p role="alert" className="mb-4 rounded-md border border-red-400 bg-night-900 px-4 py-3 text-bone-50">
            {refusal}
          </p>
        ) : null}
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
                <Form method="post">
                  <input type="hidden" name="intent" value="remove-passkey" />
                  <input type="hidden" name="passkey" value={passkey.id} />
                  <button
                    type="submit"
                    className={dangerButtonClass}
                    aria-label={copy.removeLabel(passkey.name)}
                    disabled={removing}
                  >
                    {copy.remove}
                  </button>
                </Form>
              </li>
            ))}
          </ul>
        )}
        <AddPasskey />
      </div>
    </section>
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
      {problem ? (
        <p
          id="passkey-problem"
          role="alert"
          className="rounded-md border border-red-400 bg-night-900 px-4 py-3 text-bone-50"
        >
          {problem}
        </p>
      ) : null}
      <div>
        <label htmlFor="passkey-name" className="block font-medium text-bone-100">
          {copy.nameLabel}
        </label>
        <input
          id="passkey-name"
          name="name"
          type="text"
          required
          maxLength={nameMax}
          value={name}
          onChange={(event) => setName(event.target.value)}
          disabled={!ready}
          aria-describedby={problem ? "passkey-problem passkey-name-hint" : "passkey-name-hint"}
          className={inputClass}
        />
        <p id="passkey-name-hint" className="mt-1 text-sm text-bone-300">
          {copy.nameHint}
        </p>
      </div>
      {ready ? null : <p className="text-bone-100">{support === "unsupported" ? copy.unsupported : copy.needsJs}</p>}
      <button type="submit" className={buttonClass} disabled={!ready || busy} aria-busy={busy}>
        {busy ? copy.adding : copy.add}
      </button>
    </form>
  );
}
