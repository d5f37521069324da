import { photosEditorCopy } from "~/wording/photos-editor";
import { photoLimits, type DecodeCost } from "~/photos/limits";
import type { UploadProblem } from "~/photos/upload.server";

/** Why an uploaded photo was refused, in the words the owner reads beside the field (the Photos and Work pages). */
export const problemWords = (problem: UploadProblem, cost?: DecodeCost): string => {
  const errors = photosEditorCopy.errors;
  switch (problem) {
    case "tooLarge":
      return errors.tooLarge(photoLimits.maxBytes);
    case "tooManyPixels":
      return errors.tooManyPixels(photoLimits.maxPixels / 1_000_000);
    case "tooCostly":
      return errors.tooCostly(cost?.kind ?? "whole", cost?.bytes ?? 0, photoLimits.maxDecodeBytes);
    default:
      return errors[problem];
  }
};

