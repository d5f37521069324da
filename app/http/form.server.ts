import { refusals } from "~/content/site";
import { mediaType, readBodyCapped } from "~/http/body.server";

/**
 * A form's fields, read under a cap (a route that reads its own body: app/http/body-caps.ts). Past the cap: a thrown
 * 413 whose body is the reason in words, which the route may show beside its form (the login does).
 */
export async function readForm(request: Request, maxBytes: number): Promise<FormData> {
  const body = await readBodyCapped(request, maxBytes);
  if (!body.ok) throw tooLarge(maxBytes);
  if (mediaType(request) === "application/x-www-form-urlencoded") {
    const form = new FormData();
    for (const [name, value] of new URLSearchParams(new TextDecoder().decode(body.bytes))) form.append(name, value);
    return form;
  }
  try {
    // Multipart, over the bytes already read under the cap (the platform's parser).
    return await new Response(body.bytes, {
      headers: { "Content-Type": request.headers.get("content-type") ?? "" },
    }).formData();
  } catch {
    return new FormData();
  }
}

export const tooLarge = (maxBytes: number) =>
  new Response(refusals.tooLarge(maxBytes), {
    status: 413,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
  });

/** The words of a 413 thrown by readForm, or undefined for anything else. */
export async function tooLargeWords(error: unknown): Promise<string | undefined> {
  return error instanceof Response && error.status === 413 ? error.text() : undefined;
}
