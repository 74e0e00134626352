// What a page says when another device has signed in with the same account, and where it goes: the
// signed-in pages' watcher (components/device-watch.tsx) and the public home page that says it again
// read these without loading the watcher.
export const DISPLACED_MESSAGE = "Someone else logged in!";
/** Where a displaced page goes: the home page, which says again why. */
export const DISPLACED_LANDING = "/?signedOut=elsewhere";
