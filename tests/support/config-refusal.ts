import { expect } from "vitest";
import { ConfigError, parseConfig } from "~/config.server";

/** The message parseConfig refuses `env` with (a ConfigError); fails the test when it is accepted. */
export function refusal(env: Record<string, string | undefined>): string {
  try {
    parseConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error(`expected ${JSON.stringify(env)} to be refused`);
}
