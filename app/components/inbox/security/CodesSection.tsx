import { Form, Link, useActionData, useNavigation } from "@remix-run/react";
import { buttonClass, dangerButtonClass, inputClass, quietButtonClass } from "~/components/inbox/InboxShell";
import { Field } from "~/components/inbox/form/Field";
import { Notice } from "~/components/inbox/form/Notice";
import { SecuritySection } from "~/components/inbox/security/SecuritySection";
import { securityCopy } from "~/wording/security";

export interface CodesState {
  confirmed: boolean;
  recoveryLeft: number;
}

/** What a codes button answered (app/owner/security/codes.server.ts `CodesAnswer`), as the page receives it. */
interface CodesAnswer {
  setup?: { groupedSecret: string; qrSvg: string };
  recoveryCodes?: string[];
  justSetUp?: boolean;
  error?: string;
  notice?: string;
}

const copy = securityCopy.codes;
const panelClass = "mt-4 max-w-2xl rounded-lg border bg-night-800/70 p-5";

/**
 * One-time codes from an authenticator app, and the recovery codes. The set-up (secret and QR code) and the recovery
 * codes come only in the answer to this section's posts, so they are on screen once and gone at the next visit.
 */
export function CodesSection({ codes }: { codes: CodesState }) {
  const answered = (useActionData() as { codes?: CodesAnswer } | undefined)?.codes;
  const busy = useNavigation().state !== "idle";
  const setup = !codes.confirmed ? answered?.setup : undefined;
  return (
    <SecuritySection id="security-codes" title={securityCopy.page.codes} intro={copy.intro}>
      <Notice tone="error" id="codes-error" className="mt-4 max-w-2xl">
        {answered?.error}
      </Notice>
      <Notice className="mt-4 max-w-2xl">{answered?.notice}</Notice>
      {answered?.recoveryCodes ? (
        <RecoveryCodes codes={answered.recoveryCodes} justSetUp={Boolean(answered.justSetUp)} />
      ) : null}
      {codes.confirmed ? (
        <CodesOn codes={codes} busy={busy} />
      ) : setup ? (
        <CodesSetup setup={setup} error={Boolean(answered?.error)} busy={busy} />
      ) : (
        <>
          <p className="mt-4 text-bone-100">{copy.off}</p>
          <Form method="post" className="mt-4">
            <button type="submit" name="intent" value="totp-start" className={buttonClass} disabled={busy}>
              {copy.start}
            </button>
          </Form>
        </>
      )}
    </SecuritySection>
  );
}

function CodesSetup({
  setup,
  error,
  busy,
}: {
  setup: NonNullable<CodesAnswer["setup"]>;
  error: boolean;
  busy: boolean;
}) {
  return (
    <div className={`${panelClass} border-night-600`}>
      <h3 className="text-lg font-semibold text-bone-50">{copy.setupHeading}</h3>
      <p className="mt-2 text-bone-300">{copy.scan}</p>
      <div className="mt-4 flex flex-col gap-5 sm:flex-row sm:items-start">
        {/* Drawn on the server (uqr): dark modules on white with a quiet zone, whatever the page's colours. */}
        <div
          role="img"
          aria-label={copy.qrLabel}
          className="w-64 max-w-full shrink-0 rounded-md bg-white [&>svg]:block [&>svg]:h-auto [&>svg]:w-full"
          dangerouslySetInnerHTML={{ __html: setup.qrSvg }}
        />
        <dl className="min-w-0">
          <dt className="font-medium text-bone-100">{copy.secretLabel}</dt>
          <dd data-secret="" className="mt-1 font-mono text-lg tracking-wider text-bone-50 [overflow-wrap:normal]">
            {setup.groupedSecret}
          </dd>
          <dd className="mt-1 text-sm text-bone-300">{copy.secretHint}</dd>
        </dl>
      </div>
      <p className="mt-5 text-bone-300">{copy.confirmIntro}</p>
      <Form method="post" className="mt-3 flex flex-wrap items-end gap-3">
        <Field
          id="codes-code"
          label={copy.code}
          alertId={error ? "codes-error" : undefined}
          invalid={error}
          name="code"
          type="text"
          inputMode="numeric"
          autoComplete="one-time-code"
          pattern="[0-9 ]*"
          maxLength={12}
          required
          inputClassName={`${inputClass} w-40 font-mono tracking-widest`}
        />
        <button type="submit" name="intent" value="totp-confirm" className={buttonClass} disabled={busy}>
          {copy.confirm}
        </button>
      </Form>
    </div>
  );
}

function RecoveryCodes({ codes, justSetUp }: { codes: string[]; justSetUp: boolean }) {
  return (
    <div className={`${panelClass} border-ember-400`}>
      <h3 className="text-lg font-semibold text-bone-50">{copy.recoveryHeading}</h3>
      <p className="mt-2 max-w-prose text-bone-100">{copy.recoveryIntro}</p>
      <ol
        aria-label={copy.recoveryListLabel}
        className="mt-4 w-fit space-y-1 rounded-md border border-night-600 bg-night-950 px-5 py-3 font-mono text-lg text-bone-50"
      >
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ol>
      {justSetUp ? (
        <p className="mt-4">
          <Link to="/inbox" className={buttonClass}>
            {copy.goToInbox}
          </Link>
        </p>
      ) : null}
    </div>
  );
}

function CodesOn({ codes, busy }: { codes: CodesState; busy: boolean }) {
  return (
    <div className="mt-4 max-w-2xl">
      <p className="text-bone-100">{copy.on}</p>
      <p className="mt-1 text-bone-300">{copy.recoveryLeft(codes.recoveryLeft)}</p>
      <div className="mt-4 flex flex-wrap gap-x-6 gap-y-4">
        {(
          [
            ["recovery-new", quietButtonClass, copy.newRecovery, copy.newRecoveryHint],
            ["totp-remove", dangerButtonClass, copy.remove, copy.removeHint],
          ] as const
        ).map(([intent, look, label, hint]) => (
          <Form key={intent} method="post">
            <button type="submit" name="intent" value={intent} className={look} disabled={busy}>
              {label}
            </button>
            <p className="mt-1 text-sm text-bone-300">{hint}</p>
          </Form>
        ))}
      </div>
    </div>
  );
}
