const APOSTROPHES = /[\u2018\u2019\u02bc]/g;

/**
 * The key two words are compared on: NFKC compatibility form, Unicode case folding (upper then lower case, so
 * that "ß" and "SS" meet), and the apostrophe variants ’ ‘ ʼ written as '.
 */
export function wordKey(raw: string): string {
  // ASCII, the bulk of most text: NFKC changes nothing, and upper then lower case is lower case.
  let upper = false;
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (c >= 128) return raw.normalize('NFKC').replace(APOSTROPHES, "'").toUpperCase().toLowerCase();
    if (c >= 65 && c <= 90) upper = true;
  }
  return upper ? raw.toLowerCase() : raw;
}
