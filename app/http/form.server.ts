import { refusals } from "~/wording";
import { mediaType, readBodyCapped } from "~/http/body.server";

/** The media types of a form as browsers post it. */
export const formMediaTypes: readonly string[] = ["application/x-www-form-urlencoded", "multipart/form-data"];

/**
 * A form's fields, read under a cap (a route that reads its own body: app/http/body-cap.ts). Past the cap: a thrown
 * 413 whose body is the reason spelled out, which the route may show beside its form (the login does); a body that is
 * not a form is a thrown 415, a multipart body that cannot be parsed a thrown 400, both with a plain message (formRefusal).
 */
export async function readForm(request: Request, maxBytes: number): Promise<FormData> {
  const body = await readBodyCapped(request, maxBytes);
  if (!body.ok) throw tooLarge(maxBytes);
  const form = await formOf(request, body.bytes);
  if (form instanceof Response) throw form;
  return form;
}

/**
 * The form in a body already read: urlencoded, or multipart through the platform's parser. Anything else (and no
 * media type with a body) is a 415 Response, a multipart body the parser refuses a 400, both with a plain message: read as an empty
 * form they reached the actions as a TypeError, a 500.
 */
export async function formOf(request: Request, bytes: Uint8Array<ArrayBuffer>): Promise<FormData | Response> {
  const type = mediaType(request);
  // A post with nothing in it and no media type (a bare button, curl -X POST) is an empty form.
  if (type === "application/x-www-form-urlencoded" || (type === "" && bytes.byteLength === 0)) {
    const form = new FormData();
    for (const [name, value] of new URLSearchParams(new TextDecoder().decode(bytes))) form.append(name, value);
    return form;
  }
  if (type !== "multipart/form-data") return unsupportedMediaType("a form");
  try {
    return await new Response(bytes, {
      headers: { "Content-Type": request.headers.get("content-type") ?? "" },
    }).formData();
  } catch {
    return unreadableForm();
  }
}

const refusal = (status: number, words: string) =>
  new Response(words, {
    status,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
  });

export const tooLarge = (maxBytes: number) => refusal(413, refusals.tooLarge(maxBytes));
export const unsupportedMediaType = (expected: string) => refusal(415, refusals.unsupportedMediaType(expected));
export const unreadableForm = () => refusal(400, refusals.unreadableForm);

/** A refusal thrown by readForm (413, 415 or 400) as its status and words, or undefined for anything else. */
export async function formRefusal(error: unknown): Promise<{ status: 400 | 413 | 415; words: string } | undefined> {
  if (!(error instanceof Response)) return undefined;
  const { status } = error;
  return status === 400 || status === 413 || status === 415 ? { status, words: await error.text() } : undefined;
}
