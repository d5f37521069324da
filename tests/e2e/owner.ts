import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import { inboxCopy } from "../../app/wording/inbox";
import { enquiryMessages } from "../../app/wording";
import { expect } from "./fixtures";
import { fill, send, status } from "./form";
import { e2eServers, ownerDatabase } from "./servers";

/** The owner's inbox as the tests use it: operators added with the real CLI, the login form, the contact form. */

export const owner = e2eServers.owner;
const databaseUrl = `file:${ownerDatabase}`;

/** `npm run inbox -- ARGS` against the owner server's database (the built CLI, as an owner runs it). */
export function inboxCli(args: string[], input?: string, server: { url: string; env: object } = owner): string {
  const database = "DATABASE_URL" in server.env ? String(server.env.DATABASE_URL) : databaseUrl;
  return execFileSync(process.execPath, ["build/server/cli.js", ...args], {
    env: { ...process.env, DATABASE_URL: database, PUBLIC_URL: server.url, API_HOST: "" },
    input: input ?? "",
    encoding: "utf8",
  });
}

/** A new operator of the owner server (or of `server`, an embedded one of servers.ts). */
export function newOperator(server?: { url: string; env: object }): { email: string; password: string } {
  const email = `owner-${randomUUID().slice(0, 8)}@example.com`;
  const password = `moonlit crypt ${randomUUID()}`;
  inboxCli(["operator", "add", email], `${password}\n`, server);
  return { email, password };
}

/** Each test is its own client address (the server trusts one proxy hop): the throttle counts per address. */
export async function asClient(page: Page, address = `10.${rnd()}.${rnd()}.${rnd()}`) {
  await page.setExtraHTTPHeaders({ "X-Forwarded-For": address });
  return address;
}
const rnd = () => Math.floor(Math.random() * 250) + 1;

export async function logIn(page: Page, { email, password }: { email: string; password: string }) {
  await page.getByLabel(inboxCopy.login.email).fill(email);
  await page.getByLabel(inboxCopy.login.password).fill(password);
  await page.getByRole("button", { name: inboxCopy.login.submit, exact: true }).click();
}

/** Sends an enquiry through the owner server's contact form; its token is in the name and the message. */
export async function sendEnquiry(page: Page, open: (path: string) => Promise<void>, token: string) {
  await open(`${owner.url}/contact`);
  await fill(page, {
    name: `Vlad ${token}`,
    email: `vlad-${token}@example.com`,
    message: `A coffin that opens by itself.\nSecond line. ${token}`,
    security: "Freddy",
  });
  await send(page);
  await expect(status(page)).toHaveText(enquiryMessages.success);
}

/**
 * A new operator, from a client address of its own, sends an enquiry, logs in and opens it from the inbox: the
 * enquiry's token (in its name and message) and its id.
 */
export async function openOwnEnquiry(page: Page, open: (path: string) => Promise<void>) {
  const token = randomUUID().slice(0, 8);
  const operator = newOperator();
  await asClient(page);
  await sendEnquiry(page, open, token);
  await open(`${owner.url}/inbox/login?next=${encodeURIComponent(`/inbox?q=${token}`)}`);
  await logIn(page, operator);
  await page.getByRole("link", { name: `Vlad ${token}` }).click();
  await expect(page.getByRole("heading", { level: 1, name: `Vlad ${token}` })).toBeVisible();
  return { token, id: page.url().split("/inbox/")[1]!.split("?")[0]! };
}

export interface CliEnquiry {
  id: string;
  name: string;
  email: string;
  status: string;
}

export const cliEnquiries = (): CliEnquiry[] => JSON.parse(inboxCli(["--json"])) as CliEnquiry[];
