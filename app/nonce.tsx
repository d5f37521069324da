import { createContext, useContext } from "react";

/**
 * The per-request CSP nonce. It travels through React context (not loader data) so that it is never serialised
 * into the page's data or cached with it. On the client it is empty: scripts are already running by then.
 */
const NonceContext = createContext<string | undefined>(undefined);

export const NonceProvider = NonceContext.Provider;

export function useNonce(): string | undefined {
  return useContext(NonceContext);
}
