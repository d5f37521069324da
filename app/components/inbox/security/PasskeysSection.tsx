import { securityCopy } from "~/content/security";

export interface PasskeyRow {
  id: string;
  name: string;
  added: string;
  lastUsed: string | null;
}

/** The operator's passkeys. */
export function PasskeysSection({ passkeys }: { passkeys: PasskeyRow[] }) {
  return (
    <section aria-labelledby="security-passkeys" className="mt-10">
      <h2 id="security-passkeys" className="font-display text-2xl font-bold text-bone-50">
        {securityCopy.page.passkeys}
      </h2>
      <ul className="mt-4 space-y-2">
        {passkeys.map((passkey) => (
          <li key={passkey.id} className="rounded-md border border-night-600 bg-night-800 px-4 py-3 text-bone-100">
            {passkey.name}
          </li>
        ))}
      </ul>
    </section>
  );
}
