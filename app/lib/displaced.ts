// Where a page goes when another device has signed in with the same account: the signed-in pages'
// watcher (components/device-watch.tsx) goes there, and the public home page says it again (both say it
// with common.displaced.title).
/** Where a displaced page goes: the home page, which says again why. */
export const DISPLACED_LANDING = "/?signedOut=elsewhere";
