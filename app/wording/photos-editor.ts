/** Every word of the owner's Photos page (/inbox/site/photos): uploading, placing and captioning the site's photos. */

const megabytes = (bytes: number) => Math.round(bytes / (1024 * 1024));

export const photosEditorCopy = {
  title: "Photos",
  /** The link to this page from the Site page. */
  link: "Photos",
  back: "Back to the Site page",
  intro:
    "The photos on the home page's carousel and the About page. Changes here go into the draft: visitors see them after Publish on the Site page.",
  upload: {
    heading: "Upload a photo",
    hint: (maxBytes: number, maxMegapixels: number) =>
      `A JPEG, PNG, WebP or AVIF straight from a phone or camera, up to ${megabytes(maxBytes)} MB and ${maxMegapixels} megapixels. It is turned upright, cropped for its place and made small for the web; its location, camera and dates are removed.`,
    photo: "Photo",
    alt: "Alt text",
    altHint: "What the photo shows, for people who cannot see it, e.g. “A life-size animatronic werewolf in a barn.”",
    place: "Place",
    submit: "Upload",
  },
  /** The places a photo can go, as the "Place" choice names them (app/photos/limits.ts's photoPlaces). */
  places: {
    "slide-1": "Carousel slide 1",
    "slide-2": "Carousel slide 2",
    "slide-3": "Carousel slide 3",
    about: "About photo",
    none: "Not shown yet",
  },
  placed: {
    heading: "On the site (draft)",
    empty: "The drawn art (no photo).",
    photoOf: (place: string) => `${place}: photo`,
    uploaded: (fileName: string, at: string, by: string) => `${fileName}, uploaded ${at} by ${by}`,
    missing: "This photo's upload is gone: remove it from its place.",
  },
  unplaced: {
    heading: "Uploaded, not shown",
    empty: "Every uploaded photo is in a place.",
  },
  state: {
    waiting: "Waiting to be encoded…",
    encoding: (done: number, total: number) => `Encoding ${done} of ${total} files…`,
    failed: (reason: string) => `Could not be made ready for the web: ${reason}`,
    ready: "Ready for the web.",
  },
  edit: {
    alt: "Alt text",
    focusX: "Focus across (%)",
    focusY: "Focus down (%)",
    focusHint: "The point the crop keeps: 0 is the left or top edge, 100 the right or bottom, 50 the middle.",
    moveTo: "Place",
    save: "Save",
    remove: "Remove from this place",
    /** Read before each photo's buttons by a screen reader ("Carousel slide 2: Save"); hidden on screen. */
    prefix: (place: string) => `${place}: `,
  },
  captions: {
    heading: "Carousel captions",
    hint: "One line under each slide, photo or drawn art.",
    label: (slide: number) => `Slide ${slide} caption`,
    save: "Save captions",
  },
  done: {
    uploaded: "Uploaded. It shows on the site after Publish on the Site page.",
    saved: "Saved to the draft. It shows on the site after Publish on the Site page.",
    removed: "Removed from its place: the drawn art shows there after Publish on the Site page.",
    sameUpload: "This photo was uploaded before: it is the same upload, placed as you chose.",
  },
  errors: {
    noFile: "Please choose a photo to upload.",
    empty: "The chosen file is empty. Please choose the photo again.",
    tooLarge: (maxBytes: number) =>
      `This file is larger than ${megabytes(maxBytes)} MB. Please choose a smaller photo, or one exported at a lower quality.`,
    notImage:
      "This file is not a JPEG, PNG, WebP or AVIF photo (whatever its name says). Please choose a photo from the camera or the phone's gallery.",
    heic: "This is a HEIC photo (an iPhone's own format), which browsers cannot show. Please send it as a JPEG: on the iPhone, Settings → Camera → Formats → “Most Compatible” takes new photos as JPEG; for this one, share it or export it as JPEG (the browser's photo picker usually converts it by itself when you choose it from Photos rather than Files).",
    tooCostly: (kind: "strips" | "whole-png" | "whole-jpeg" | "whole", bytes: number, maxBytes: number) =>
      `${
        kind === "whole-png"
          ? "This PNG is saved interlaced, so it can only be opened whole"
          : kind === "whole-jpeg"
            ? "This JPEG is saved progressive, so it can only be opened whole"
            : "This WebP or AVIF image can only be opened whole"
      }: that would take ${megabytes(bytes)} MB of memory, and the site allows ${megabytes(maxBytes)} MB for one photo. Please send it as a standard JPEG straight from the camera or phone, or a smaller picture.`,
    busy: "Several photos are being checked right now, so this one was not taken. Please choose the photo again and send it in a minute (the alt text and place are kept).",
    tooManyPixels: (maxMegapixels: number) =>
      `This image is larger than ${maxMegapixels} megapixels, more than any camera takes. Please choose a smaller photo.`,
    unreadable: "This photo cannot be read: it may be cut short or damaged. Please choose it again or export it anew.",
    notMultipart: "Please send the photo with the upload form.",
    badPlace: "Please choose a place from the list.",
    focus: "Please enter a number from 0 to 100.",
    unknownPhoto: "That photo is not among the uploads. Reload the page and try again.",
    unknownAction: "Unknown action.",
    summary: "The photo was not uploaded:",
  },
} as const;
