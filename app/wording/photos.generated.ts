// Written by scripts/photos.mjs (npm run build) from photos/: do not edit. See docs/photos.md.
import type { PhotoManifest } from "./photo-types";

export const photos: PhotoManifest = {
  "slides": [
    null,
    null,
    null
  ],
  "about": null,
  "social": {
    "src": "/photos/social-9f76568343.jpg",
    "width": 1200,
    "height": 630
  }
};
