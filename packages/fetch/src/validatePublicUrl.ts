import { FetchError } from './errors.js';
import { checkAddress } from './isPublicAddress.js';

/** Why a URL fails the static checks: its form (`url`), or the host it names (`host`). */
export interface UrlProblem {
  kind: 'url' | 'host';
  message: string;
}

/**
 * Static checks on a caller-supplied URL, before any DNS: a non-empty string holding an absolute
 * http(s) URL with a host name, no credentials, not a localhost name and, when the host is an IP
 * literal (any form WHATWG URL parsing normalises, such as `http://2130706433/`), a public address.
 *
 * @throws {FetchError} `INVALID_URL`, with a message naming the problem.
 */
export function validatePublicUrl(value: unknown): URL {
  const result = checkPublicUrl(value);
  if (result instanceof URL) return result;
  throw new FetchError('INVALID_URL', result.message);
}

/** Same checks as {@link validatePublicUrl}, returning the problem instead of throwing. */
export function checkPublicUrl(value: unknown): URL | UrlProblem {
  if (typeof value !== 'string' && !(value instanceof URL)) {
    return urlProblem(`URL must be a string but received ${describe(value)}`);
  }
  const text = String(value);
  if (text.trim() === '') return urlProblem('URL is empty');
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    if (/^[a-z][a-z0-9+.-]*:\/\/(?:[^@/?#]*@)?(?::\d*)?(?:[/?#]|$)/i.test(text.trim())) return urlProblem('URL has no hostname');
    return urlProblem('URL is not a valid absolute URL (expected something like https://example.com/image.png)');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return urlProblem(`URL scheme "${url.protocol.slice(0, -1)}" is not allowed; use http or https`);
  }
  if (url.hostname === '') return urlProblem('URL has no hostname');
  if (url.username !== '' || url.password !== '') {
    return urlProblem('URL must not contain credentials (user:password@)');
  }
  const hostProblem = checkHostname(url.hostname);
  if (hostProblem !== undefined) return { kind: 'host', message: hostProblem };
  return url;
}

/** Host name of a parsed URL without IPv6 brackets, ready for DNS or for use as an address. */
export function bareHostname(url: URL): string {
  const { hostname } = url;
  return hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
}

function checkHostname(hostname: string): string | undefined {
  // WHATWG parsing lowercases names and keeps trailing dots, which DNS ignores.
  const name = hostname.replace(/\.+$/, '');
  if (name === 'localhost' || name.endsWith('.localhost')) {
    return `URL host "${hostname}" is not allowed: localhost names point to the service itself`;
  }
  if (name.startsWith('[') || /^[\d.]+$/.test(name)) {
    const address = name.startsWith('[') ? name.slice(1, -1) : name;
    const verdict = checkAddress(address);
    if (!verdict.public) {
      const range = verdict.range === undefined ? '' : ` (${verdict.range})`;
      return `URL host ${hostname} is ${verdict.reason}${range}; only public addresses are allowed`;
    }
  }
  return undefined;
}

function urlProblem(message: string): UrlProblem {
  return { kind: 'url', message };
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a value of type ${typeof value}`;
}
