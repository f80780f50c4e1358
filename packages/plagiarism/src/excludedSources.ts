import { InvalidExcludedSourceError } from './errors.js';

/** One parsed entry of `excluded_sources`. */
export type ExclusionRule = { kind: 'domain'; domain: string } | { kind: 'url'; url: string };

const DOMAIN = /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;

/**
 * Parses `excluded_sources`: an entry with a scheme is a full URL (http or https), matched exactly; any other
 * entry must be a domain name, which excludes the domain and all its subdomains. Both are compared
 * case-sensitively, as the spec says, against the URL as written (host names are not lower-cased).
 */
export function parseExcludedSources(entries: readonly string[]): ExclusionRule[] {
  if (!Array.isArray(entries)) throw new InvalidExcludedSourceError(-1, String(entries), 'expected an array of strings');
  return entries.map((entry, index) => {
    if (typeof entry !== 'string') throw new InvalidExcludedSourceError(index, String(entry), 'not a string');
    if (entry.length === 0 || entry.trim() !== entry) throw new InvalidExcludedSourceError(index, entry, 'empty or surrounded by white space');
    if (entry.includes('://')) {
      let url: URL;
      try {
        url = new URL(entry);
      } catch {
        throw new InvalidExcludedSourceError(index, entry, 'not a valid URL');
      }
      if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new InvalidExcludedSourceError(index, entry, 'only http and https URLs');
      if (url.hostname.length === 0) throw new InvalidExcludedSourceError(index, entry, 'the URL has no host');
      return { kind: 'url', url: entry };
    }
    if (!DOMAIN.test(entry)) throw new InvalidExcludedSourceError(index, entry, 'not a domain name');
    return { kind: 'domain', domain: entry };
  });
}

/** The host of a URL as written (case kept), without user info or port; undefined when there is none. */
export function hostOf(url: string): string | undefined {
  const match = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/(?:[^@/?#]*@)?(\[[^\]]*\]|[^:/?#]*)/.exec(url);
  const host = match?.[1];
  return host === undefined || host.length === 0 ? undefined : host.replace(/\.$/, '');
}

/** Whether a source URL is excluded by one of the rules. */
export function isExcluded(url: string, rules: readonly ExclusionRule[]): boolean {
  if (rules.length === 0) return false;
  const host = hostOf(url);
  for (const rule of rules) {
    if (rule.kind === 'url') {
      if (url === rule.url) return true;
    } else if (host !== undefined && (host === rule.domain || host.endsWith(`.${rule.domain}`))) {
      return true;
    }
  }
  return false;
}
