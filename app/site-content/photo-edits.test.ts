import { describe, expect, it } from "vitest";
import { photoLimits, photoUploadBodyCap } from "~/photos/limits";
import { focusFrom, photoAt, placedUploads, placePhoto, withCaptions } from "~/site-content/photo-edits";
import { defaultSiteContent, validateSiteContent } from "~/site-content/schema.server";

const photo = (n: number, alt = `Photo ${n}`) => ({ upload: String(n).repeat(24), alt, focus: { x: 0.5, y: 0.5 } });

describe("the Photos page's edits to the draft", () => {
  it("puts an upload in a place; another upload there replaces it, its upload stays unplaced", () => {
    const one = placePhoto(defaultSiteContent, "none", "slide-2", photo(1));
    expect(photoAt(one, "slide-2")).toEqual(photo(1));
    expect(one.photos.slides).toEqual([null, photo(1), null]);
    const two = placePhoto(one, "none", "slide-2", photo(2));
    expect(photoAt(two, "slide-2")).toEqual(photo(2));
    expect([...placedUploads(two)]).toEqual([photo(2).upload]);
    expect(defaultSiteContent.photos.slides).toEqual([null, null, null]);
  });

  it("moves a photo between places, swapping with what was there, and takes one off its place", () => {
    let content = placePhoto(defaultSiteContent, "none", "slide-1", photo(1));
    content = placePhoto(content, "none", "about", photo(2));
    content = placePhoto(content, "slide-1", "about", { ...photo(1), focus: { x: 0.2, y: 0.8 } });
    expect(content.photos.about).toEqual({ ...photo(1), focus: { x: 0.2, y: 0.8 } });
    expect(content.photos.slides[0]).toEqual(photo(2));
    content = placePhoto(content, "slide-1", "none", photo(2));
    expect(content.photos.slides).toEqual([null, null, null]);
    expect(validateSiteContent(content).ok).toBe(true);
  });

  it("changes the captions, and the schema still judges alt text and captions", () => {
    const content = withCaptions(placePhoto(defaultSiteContent, "none", "slide-3", photo(3, "")), ["a", "", "c"]);
    const checked = validateSiteContent(content);
    expect(checked.ok).toBe(false);
    if (!checked.ok) expect(Object.keys(checked.errors).sort()).toEqual(["photos.captions.1", "photos.slides.2.alt"]);
  });

  it("reads a focus typed in percent, refusing anything but 0 to 100", () => {
    expect(focusFrom("50")).toBe(0.5);
    expect(focusFrom(" 33.5 ")).toBe(0.335);
    expect(focusFrom("0")).toBe(0);
    expect(focusFrom("100")).toBe(1);
    for (const bad of ["", "101", "-1", "1e2", "abc", "50%", "NaN"]) expect(focusFrom(bad)).toBeNull();
  });

  it("gives the upload route a cap of one photo at its limit and its fields, read by the route itself", () => {
    const cap = photoUploadBodyCap.maxBytes;
    expect(cap).toBeGreaterThan(photoLimits.maxBytes);
    expect(cap).toBeLessThanOrEqual(photoLimits.maxBytes + 64 * 1024);
    expect(photoUploadBodyCap.readsOwnBody).toBe(true);
  });
});
