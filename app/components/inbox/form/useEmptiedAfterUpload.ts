import { useLocation } from "@remix-run/react";
import { useEffect, useRef } from "react";

/**
 * An upload form's element, emptied when the page comes back after an upload (a new location) without a refusal. A
 * refused upload keeps everything typed, and so does the page asking for its data again while photos or clips encode
 * (the same location).
 */
export function useEmptiedAfterUpload(refused: boolean) {
  const form = useRef<HTMLFormElement>(null);
  const location = useLocation();
  const shownAt = useRef(location.key);
  useEffect(() => {
    if (shownAt.current === location.key) return;
    shownAt.current = location.key;
    if (!refused) form.current?.reset();
  }, [location.key, refused]);
  return form;
}
