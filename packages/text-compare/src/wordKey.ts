const APOSTROPHES = /[\u2018\u2019\u02bc]/g;

/**
 * The key two words are compared on: NFKC compatibility form, Unicode case folding (upper then lower case, so
 * that "ß" and "SS" meet), and the apostrophe variants ’ ‘ ʼ written as '.
 */
export function wordKey(raw: string): string {
  let key = raw;
  for (let i = 0; i < raw.length; i++) {
    if (raw.charCodeAt(i) >= 128) {
      key = raw.normalize('NFKC').replace(APOSTROPHES, "'");
      break;
    }
  }
  return key.toUpperCase().toLowerCase();
}
