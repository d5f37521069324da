import { describe, expect, it } from "vitest";
import { photos as built } from "~/wording/photos.generated";
import { placementKey } from "~/site-content/photo-renditions.server";
import { photosFrom, type RenditionEntry } from "~/site-content/public-photos.server";
import { defaultSiteContent, type PhotoPlacement, type SiteContent } from "~/site-content/schema.server";
import type { PhotoRendition, PhotoShape } from "~/store/photos.types";

const upload = "0123456789abcdef01234567";
const slide1: PhotoPlacement = { upload, alt: "A cloaked reaper in the workshop", focus: { x: 0.4, y: 0.3 } };
const about: PhotoPlacement = { upload, alt: "The workshop bench", focus: { x: 0.5, y: 0.5 } };

const entry = (name: string, social = true): RenditionEntry => ({
  width: 1600,
  height: 900,
  avif: [{ width: 480, src: `/photos/${name}-480.avif` }],
  webp: [{ width: 480, src: `/photos/${name}-480.webp` }],
  jpeg: [{ width: 480, src: `/photos/${name}-480.jpg` }],
  placeholder: "data:image/webp;base64,AAAA",
  ...(social ? { social: { src: `/photos/${name}-social.jpg`, width: 1200, height: 630 } } : {}),
});

function rendition(shape: PhotoShape, photo: PhotoPlacement, state: PhotoRendition["state"], json: string | null) {
  return {
    key: placementKey({ shape, photo }),
    uploadId: photo.upload,
    shape,
    focus: photo.focus,
    state,
    done: 0,
    total: 0,
    entry: json,
    error: null,
  } satisfies PhotoRendition;
}

const placed: SiteContent = {
  ...defaultSiteContent,
  photos: {
    slides: [slide1, null, null],
    about,
    captions: ["the reaper, finished", "second", "third"],
  },
};

describe("the photos the public pages show", () => {
  it("with nothing placed: the build's photos (here the drawn art), the default captions, the build's preview image", () => {
    const photos = photosFrom(defaultSiteContent, []);
    expect(photos.slides).toEqual(built.slides);
    expect(photos.about).toBe(built.about);
    expect(photos.social).toEqual(built.social);
    expect(photos.captions).toEqual(defaultSiteContent.photos.captions);
  });

  it("a placed photo shows once its rendition is ready, with the placement's alt text; slide 1 gives the preview", () => {
    const photos = photosFrom(placed, [
      rendition("slide", slide1, "ready", JSON.stringify(entry("slide"))),
      rendition("about", about, "ready", JSON.stringify(entry("about", false))),
    ]);
    const { social: _social, ...slideFiles } = entry("slide");
    expect(photos.slides[0]).toEqual({ ...slideFiles, alt: slide1.alt });
    expect(photos.slides.slice(1)).toEqual(built.slides.slice(1));
    expect(photos.about).toEqual({ ...entry("about", false), alt: about.alt });
    expect(photos.social).toEqual({ src: "/photos/slide-social.jpg", width: 1200, height: 630 });
    expect(photos.captions).toEqual(["the reaper, finished", "second", "third"]);
  });

  it("pending, failed, unreadable or another focus's renditions leave the fallback in place", () => {
    const moved = { ...slide1, focus: { x: 0.9, y: 0.9 } };
    for (const renditions of [
      [rendition("slide", slide1, "pending", null)],
      [rendition("slide", slide1, "failed", null)],
      [rendition("slide", slide1, "ready", "{not json")],
      [rendition("slide", slide1, "ready", JSON.stringify({ width: 10, height: 10 }))],
      [rendition("slide", moved, "ready", JSON.stringify(entry("moved")))],
      // The About photo's crop is not a slide's.
      [rendition("about", slide1, "ready", JSON.stringify(entry("about")))],
    ]) {
      const photos = photosFrom(placed, renditions);
      expect(photos.slides[0]).toBe(built.slides[0]);
      expect(photos.social).toEqual(built.social);
    }
  });
});
