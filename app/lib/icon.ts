// The site's icon as a hashed asset (/assets/icon-<hash>.svg), cached by browsers for a year like
// the rest of /assets; a file in public/ is cached for an hour only.
import iconUrl from "../assets/icon.svg?no-inline";

export const ICON_URL = iconUrl;
